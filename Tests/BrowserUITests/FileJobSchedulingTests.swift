@testable import BrowserCore
@testable import BrowserUI
import FileSystemKit
import Places
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// File jobs as the scheduler's tasks: a question holds the job's slot, a job queued behind it
/// and cancelled ends "cancelled" with nothing written, the answer reaches the job by its id,
/// and every status reaches the inbox as the scheduler's progress. Real files in a temporary
/// folder; the test waits on the inbox's messages, never on time.
@Suite struct FileJobSchedulingTests {
    /// Every result the inbox had, kept, and a wait for the first that matches.
    final class Messages {
        let inbox = Inbox()
        private var seen: [BackgroundResult] = []

        /// Awaits (never blocks: the jobs' tasks need the cooperative threads the test process shares).
        func first(where match: (BackgroundResult) -> Bool) async -> BackgroundResult? {
            for _ in 0..<3000 {
                for case .result(let result) in inbox.drain() { seen.append(result) }
                if let found = seen.first(where: match) { return found }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }

        func status(of id: Int, _ phase: JobStatus.Phase) async -> JobStatus? {
            guard case .jobChanged(let status)? = await first(where: {
                if case .jobChanged(let status) = $0 { status.id == id && status.phase == phase } else { false }
            }) else { return nil }
            return status
        }
    }

    private func write(_ text: String, to path: String) {
        try? AtomicFileWriter.write(Array(text.utf8), to: path, permissions: 0o644)
    }

    private func read(_ path: String) -> String? {
        guard let bytes = UntrustedFile.read(path, upTo: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aQueuedJobCancelledEndsCancelledAndTheAnsweredOneFinishes() async {
        let folder = TemporaryFolder.make()
        defer { TemporaryFolder.remove(folder) }
        mkdir(folder + "/from", 0o755)
        mkdir(folder + "/to", 0o755)
        write("new", to: folder + "/from/a.txt")
        write("b", to: folder + "/from/b.txt")
        write("old", to: folder + "/to/a.txt")
        let messages = Messages()
        let inbox = messages.inbox
        // One task per volume: the second job waits behind the first.
        let tasks = BackgroundTasks(limit: 4, perVolume: { _ in 1 }, observer: { event in
            if case .progress(_, let status) = event { inbox.post(.result(.jobChanged(status))) }
        })
        let journal = UndoJournal(path: folder + "/journal.json") { bytes, path in try? AtomicFileWriter.write(bytes, to: path, permissions: 0o600) }
        let runner = FileJobRunner(inbox: inbox, scheduler: tasks, cache: ThumbnailCache(root: folder + "/cache", readsShared: false),
                                   verifiesCopies: false, journal: journal, place: LocalPlace(io: VolumeIO(), volumes: { [] }))

        let first = runner.start(.copy, sources: [folder + "/from/a.txt"], destination: folder + "/to", volumes: [])
        #expect(await messages.first { if case .conflictAsked(first, _) = $0 { true } else { false } } != nil)
        let second = runner.start(.copy, sources: [folder + "/from/b.txt"], destination: folder + "/to", volumes: [])
        #expect(tasks.tasks.map(\.id) == [first, second])
        #expect(tasks.tasks.map(\.phase) == [.running, .queued])
        // Listed at once, before it runs: the jobs panel shows it waiting.
        #expect(tasks.tasks.last?.report?.id == second)

        runner.cancel(second)
        #expect(await messages.status(of: second, .cancelled) != nil)
        #expect(read(folder + "/to/b.txt") == nil)

        runner.answer(first, .overwrite, applyToAll: false)
        #expect(await messages.status(of: first, .finished) != nil)
        #expect(read(folder + "/to/a.txt") == "new")
        for _ in 0..<3000 where tasks.isBusy(group: FileJobRunner.group) { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(tasks.tasks.isEmpty)
    }
}
