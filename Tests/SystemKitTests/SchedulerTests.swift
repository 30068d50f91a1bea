import Synchronization
import Testing
@testable import SystemKit

/// The one scheduler: priority order, per-volume limits, progress, cancellation, a task that
/// throws. Tasks wait on the test's own gates (continuations) and the test reads the scheduler's
/// events one by one: no sleeps, no timed assertions.
@Suite struct SchedulerTests {
    /// A task waits here until the test opens it.
    actor Gate {
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var isOpen = false
        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func open() {
            isOpen = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    /// A scheduler whose events the test reads in order.
    struct Rig {
        let scheduler: Scheduler<Int>
        var events: AsyncStream<Scheduler<Int>.Event>.Iterator

        init(limit: Int, perVolume: Int = 10, perGroup: @escaping @Sendable (String) -> Int = { _ in 10 }) {
            let (stream, continuation) = AsyncStream<Scheduler<Int>.Event>.makeStream()
            scheduler = Scheduler(limit: limit, perVolume: { _ in perVolume }, perGroup: perGroup, observer: { continuation.yield($0) })
            events = stream.makeAsyncIterator()
        }

        mutating func next() async -> Scheduler<Int>.Event? { await events.next() }

        /// The next start or end, progress skipped.
        mutating func nextChange() async -> String {
            while let event = await events.next() {
                switch event {
                case .started(let id): return "start \(id)"
                case .ended(let id, let outcome): return "end \(id) \(outcome)"
                case .progress: continue
                }
            }
            return "no more"
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String { "the disk said no" } }

    @Test func whatIsOnScreenStartsFirstThenTheOrderAsked() async {
        var rig = Rig(limit: 1)
        let first = Gate()
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .background, id: 1) { _ in await first.wait() }
        #expect(await rig.nextChange() == "start 1")
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .background, id: 2) { _ in }
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .user, id: 3) { _ in }
        rig.scheduler.submit(group: "text", volume: "/", priority: .onScreen, id: 4) { _ in }
        #expect(rig.scheduler.tasks.map(\.id) == [1, 4, 3, 2])
        #expect(rig.scheduler.tasks.map(\.phase) == [.running, .queued, .queued, .queued])
        await first.open()
        var order: [String] = []
        for _ in 0..<7 { order.append(await rig.nextChange()) }
        #expect(order == ["end 1 finished", "start 4", "end 4 finished", "start 3", "end 3 finished", "start 2", "end 2 finished"])
        #expect(rig.scheduler.tasks.isEmpty)
    }

    @Test func aFullVolumeHoldsBackOnlyItsOwnTasks() async {
        var rig = Rig(limit: 10, perVolume: 1)
        let stick = Gate()
        rig.scheduler.submit(group: "files", volume: "/media/stick", priority: .user, id: 1) { _ in await stick.wait() }
        #expect(await rig.nextChange() == "start 1")
        rig.scheduler.submit(group: "files", volume: "/media/stick", priority: .onScreen, id: 2) { _ in }
        #expect(rig.scheduler.tasks.map(\.phase) == [.running, .queued])
        // Another volume is not held back by the stick's queue.
        rig.scheduler.submit(group: "files", volume: "/", priority: .background, id: 3) { _ in }
        #expect(await rig.nextChange() == "start 3")
        #expect(await rig.nextChange() == "end 3 finished")
        #expect(rig.scheduler.tasks.map(\.id) == [1, 2])
        await stick.open()
        #expect(await rig.nextChange() == "end 1 finished")
        #expect(await rig.nextChange() == "start 2")
        #expect(await rig.nextChange() == "end 2 finished")
    }

    @Test func progressIsListedAndTold() async {
        var rig = Rig(limit: 2)
        let gate = Gate()
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .background, id: 7) { context in
            context.report(40)
            await gate.wait()
        }
        #expect(await rig.nextChange() == "start 7")
        guard case .progress(7, 40)? = await rig.next() else {
            Issue.record("no progress event")
            return
        }
        #expect(rig.scheduler.tasks.first?.report == 40)
        await gate.open()
        #expect(await rig.nextChange() == "end 7 finished")
    }

    @Test func cancellingARunningTaskReachesItsWork() async {
        var rig = Rig(limit: 1)
        let heard = Gate()
        rig.scheduler.submit(group: "edit", volume: "/", priority: .user, id: 1) { context in
            // The handler stands for a file operation told to stop; the await for an open question.
            context.onCancel { Task { await heard.open() } }
            await heard.wait()
            try Task.checkCancellation()
        }
        #expect(await rig.nextChange() == "start 1")
        rig.scheduler.cancel(1)
        #expect(await rig.nextChange() == "end 1 cancelled")
        #expect(rig.scheduler.tasks.isEmpty)
    }

    @Test func aQueuedTaskCancelledRunsOnceAlreadyCancelled() async {
        var rig = Rig(limit: 1)
        let first = Gate()
        let sawCancelled = Mutex<Bool?>(nil)
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .background, id: 1) { _ in await first.wait() }
        #expect(await rig.nextChange() == "start 1")
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .background, id: 2) { context in
            sawCancelled.withLock { $0 = context.isCancelled }
        }
        rig.scheduler.cancel(2)
        #expect(await rig.nextChange() == "start 2")
        #expect(await rig.nextChange() == "end 2 cancelled")
        #expect(sawCancelled.withLock { $0 } == true)
        // It never held the only slot: the first still runs.
        #expect(rig.scheduler.tasks.map(\.id) == [1])
        await first.open()
        #expect(await rig.nextChange() == "end 1 finished")
    }

    @Test func cancellingAVolumeStopsOnlyItsTasks() async {
        var rig = Rig(limit: 4)
        let share = Gate(), home = Gate()
        rig.scheduler.submit(group: "jobs", volume: "/mnt/share", priority: .background, id: 1) { context in
            context.onCancel { Task { await share.open() } }
            await share.wait()
        }
        #expect(await rig.nextChange() == "start 1")
        rig.scheduler.submit(group: "jobs", volume: "/home", priority: .background, id: 2) { _ in await home.wait() }
        #expect(await rig.nextChange() == "start 2")
        rig.scheduler.cancel(volume: "/mnt/share")
        #expect(await rig.nextChange() == "end 1 cancelled")
        #expect(rig.scheduler.tasks.map(\.id) == [2])
        #expect(rig.scheduler.isBusy(group: "jobs"))
        await home.open()
        #expect(await rig.nextChange() == "end 2 finished")
        #expect(!rig.scheduler.isBusy(group: "jobs"))
    }

    @Test func aTaskThatThrowsEndsFailedAndFreesItsSlot() async {
        var rig = Rig(limit: 1)
        let gate = Gate()
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .user, id: 1) { _ in
            await gate.wait()
            throw Failure()
        }
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .user, id: 2) { _ in }
        #expect(await rig.nextChange() == "start 1")
        #expect(rig.scheduler.tasks.map(\.phase) == [.running, .queued])
        await gate.open()
        #expect(await rig.nextChange() == "end 1 failed(\"the disk said no\")")
        #expect(await rig.nextChange() == "start 2")
        #expect(await rig.nextChange() == "end 2 finished")
    }

    @Test func aGroupOfOneRunsInTheOrderAsked() async {
        var rig = Rig(limit: 10, perGroup: { $0 == "undo" ? 1 : 10 })
        let first = Gate()
        rig.scheduler.submit(group: "undo", volume: "/", priority: .user, id: 1) { _ in await first.wait() }
        rig.scheduler.submit(group: "undo", volume: "/other", priority: .onScreen, id: 2) { _ in }
        rig.scheduler.submit(group: "find", volume: "/", priority: .user, id: 3) { _ in }
        #expect(await rig.nextChange() == "start 1")
        #expect(await rig.nextChange() == "start 3")
        #expect(rig.scheduler.tasks.first { $0.id == 2 }?.phase == .queued)
        await first.open()
        var rest: [String] = []
        for _ in 0..<4 { rest.append(await rig.nextChange()) }
        #expect(rest.firstIndex(of: "end 1 finished")! < rest.firstIndex(of: "start 2")!)
    }

    @Test func theReasonAndTheAttachmentReachTheTask() async {
        var rig = Rig(limit: 1)
        let reason = Mutex<String?>(nil)
        let gate = Gate()
        rig.scheduler.submit(group: "jobs", volume: "/", priority: .background, id: 3, report: 0, attachment: "question") { context in
            context.onCancel { Task { await gate.open() } }
            await gate.wait()
            reason.withLock { $0 = context.cancelReason }
        }
        // The first report is listed before the task runs.
        guard case .progress(3, 0)? = await rig.next() else {
            Issue.record("no first report")
            return
        }
        #expect(await rig.nextChange() == "start 3")
        #expect(rig.scheduler.attachment(of: 3) as? String == "question")
        rig.scheduler.cancel(3, reason: "photos was disconnected")
        #expect(await rig.nextChange() == "end 3 cancelled")
        #expect(reason.withLock { $0 } == "photos was disconnected")
        #expect(rig.scheduler.attachment(of: 3) == nil)
    }

    @Test func idsAreGivenWhenNoneIsAsked() async {
        var rig = Rig(limit: 1)
        let a = rig.scheduler.submit(group: "g", volume: "/", priority: .user) { _ in }
        let b = rig.scheduler.submit(group: "g", volume: "/", priority: .user) { _ in }
        #expect(a != b)
        for _ in 0..<4 { _ = await rig.nextChange() }
        #expect(rig.scheduler.tasks.isEmpty)
    }
}
