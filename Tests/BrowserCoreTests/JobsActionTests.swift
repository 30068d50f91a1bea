import Testing
@testable import BrowserCore
import FileSystemKit

/// The jobs feature's reducer: the jobs panel, cancelling and pausing.
@Suite struct JobsActionTests {
    private func job(_ id: Int, _ kind: JobKind, _ phase: JobStatus.Phase) -> JobStatus {
        var job = JobStatus(id: id, kind: kind, folder: "/home/me")
        job.phase = phase
        return job
    }

    @Test func theJobsPanelOpensOnTheNewestAndCancelsOrPausesOnlyWhatRuns() {
        var state = BrowserState.browsing(["a"])
        state.apply(.jobChanged(job(1, .file(.copy), .running)))
        state.apply(.jobChanged(job(2, .thumbnails, .finished)))
        state.apply(.jobs(.toggle))
        #expect(state.overlay == .jobs && state.jobCursor == 1)
        #expect(state.apply(.jobs(.cancel)).isEmpty, "a finished job is not cancelled")
        state.apply(.navigation(.moveUp(1)))
        #expect(state.apply(.jobs(.cancel)) == [.cancelJob(id: 1)])
        #expect(state.apply(.jobs(.togglePause)) == [.pauseJob(id: 1, paused: true)])
        state.apply(.jobs(.toggle))
        #expect(state.overlay == nil)
    }

    @Test func aQueuedJobShowsAsQueuedCanBeCancelledAndNeverGoesBackToWaiting() {
        var state = BrowserState.browsing(["a"])
        state.apply(.jobChanged(job(3, .thumbnails, .queued)))
        #expect(JobText.line(state.jobs[0]).hasSuffix(" queued"))
        #expect(JobText.statusNote(state.jobs) == "T queued")
        state.apply(.jobs(.toggle))
        #expect(state.apply(.jobs(.cancel)) == [.cancelJob(id: 3)], "a job waiting for a slot is cancelled like a running one")
        state.apply(.jobChanged(job(3, .thumbnails, .walking)))
        // A "queued" heard after the job started (two threads' posts crossing) is old news.
        state.apply(.jobChanged(job(3, .thumbnails, .queued)))
        #expect(state.jobs[0].phase == .walking)
        #expect(!JobText.line(state.jobs[0]).contains("queued"))
    }
}
