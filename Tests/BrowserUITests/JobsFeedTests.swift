@testable import BrowserCore
@testable import BrowserUI
import SystemKit
import Testing

/// The jobs panel reads the scheduler's list: a job waiting for a slot is reported queued, and
/// as what it reports once it runs.
@Suite struct JobsFeedTests {
    /// The statuses of job `id` posted so far, in order.
    private static func statuses(_ id: Int, in messages: [UIMessage]) -> [JobStatus] {
        messages.compactMap { message in
            if case .result(.jobChanged(let status)) = message, status.id == id { return status }
            return nil
        }
    }

    @Test func aJobWaitingBehindAnotherIsQueuedUntilItsSlotIsFree() async {
        let inbox = Inbox()
        let feed = JobsFeed(inbox: inbox)
        let tasks = BackgroundTasks(limit: 1, perVolume: { _ in 1 }, observer: feed.heard)
        feed.follow(tasks)
        let (gate, open) = AsyncStream<Void>.makeStream()
        tasks.submit(group: "thumbnails", volume: "/", priority: .background, id: 9001, report: JobStatus(id: 9001, folder: "/first")) { _ in
            for await _ in gate {}
        }
        tasks.submit(group: "thumbnails", volume: "/", priority: .background, id: 9002, report: JobStatus(id: 9002, folder: "/second")) { _ in }
        var messages = inbox.drain()
        #expect(Self.statuses(9001, in: messages).last?.phase == .walking)
        #expect(Self.statuses(9002, in: messages).map(\.phase) == [.queued])
        open.finish()
        for _ in 0..<500 where !Self.statuses(9002, in: messages).contains(where: { $0.phase == .walking }) {
            try? await Task.sleep(for: .milliseconds(10))
            messages += inbox.drain()
        }
        #expect(Self.statuses(9002, in: messages).last?.phase == .walking, "started: the job's own report")
    }

    @Test func tasksThatAreNoJobsAreNotShown() {
        let inbox = Inbox()
        let feed = JobsFeed(inbox: inbox)
        let tasks = BackgroundTasks(limit: 1, perVolume: { _ in 1 }, observer: feed.heard)
        feed.follow(tasks)
        tasks.submit(group: "probe", volume: "/", priority: .onScreen) { _ in }
        #expect(inbox.drain().isEmpty)
    }
}
