import Synchronization
import Testing
@testable import SystemKit

#if canImport(Glibc)
import Glibc
#endif

/// The awaited shape of `VolumeIO` (what the engine used to call `BlockingCall`).
@Suite(.serialized) struct VolumeIOCallTests {
    /// The engine's limit, as ThumbnailKit sets it.
    private let io = VolumeIO(maximumOutstanding: 32)

    /// Something a stuck call waits on until the test lets go.
    final class Gate: Sendable {
        private let open = Atomic<Bool>(false)
        let entered = Atomic<Int>(0)
        func wait(_ token: VolumeIO.Token? = nil) {
            entered.add(1, ordering: .relaxed)
            while !open.load(ordering: .relaxed) && !(token?.isCancelled ?? false) { usleep(1000) }
        }
        func release() { open.store(true, ordering: .relaxed) }
    }

    private func waitUntil(_ seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test func theValueComesBack() async throws {
        #expect(try await io.call { _ in 6 * 7 } == 42)
    }

    @Test func aCallPastItsDeadlineFailsAsNotRespondingAndItsBodyHearsOfIt() async throws {
        let gate = Gate()
        let cancelled = Atomic<Bool>(false)
        let started = ContinuousClock.now
        do {
            _ = try await io.call(deadline: 0.2) { token in
                gate.wait(token)
                cancelled.store(token.isCancelled, ordering: .relaxed)
                return 1
            }
            Issue.record("the stuck call returned a value")
        } catch {
            #expect(error.code == .notResponding)
            #expect(error.message == "no answer in 0.2 s (the volume is not responding)")
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(await waitUntil { cancelled.load(ordering: .relaxed) }, "the body saw its token cancelled")
        // In time, the deadline changes nothing.
        #expect(try await io.call(deadline: 5) { _ in 7 } == 7)
        gate.release()
    }

    @Test func stuckCallsDoNotHoldTheCooperativeThreads() async throws {
        // Twelve calls stuck at once: were they on the cooperative pool (a thread per core),
        // nothing else could run and this test would hang instead of finishing.
        let gate = Gate()
        let stuck = (0..<12).map { _ in Task { [io] in try await io.call { _ in gate.wait() } } }
        #expect(await waitUntil { gate.entered.load(ordering: .relaxed) == 12 })
        let other = Task { (1...1000).reduce(0, +) }
        #expect(await other.value == 500500)
        gate.release()
        for task in stuck { try await task.value }
    }

    @Test func cancellingReturnsAtOnceAndTellsTheBody() async throws {
        let gate = Gate()
        let sawCancel = Atomic<Bool>(false)
        let bodyFinished = Atomic<Bool>(false)
        // The body ignores cancellation and stays blocked until the gate opens: the call must
        // return to its caller anyway (no clock involved, so a busy machine cannot fail it).
        let task = Task { [io] in
            try await io.call { token in
                gate.wait()
                sawCancel.store(token.isCancelled, ordering: .relaxed)
                bodyFinished.store(true, ordering: .relaxed)
            }
        }
        #expect(await waitUntil { gate.entered.load(ordering: .relaxed) == 1 })
        task.cancel()
        let outcome = await task.result
        let finishedBeforeReturn = bodyFinished.load(ordering: .relaxed)
        #expect(!finishedBeforeReturn, "the call returned while its body was still blocked")
        #expect((try? outcome.get()) == nil)
        gate.release()
        #expect(await waitUntil { sawCancel.load(ordering: .relaxed) }, "the body saw the cancellation")
    }

    @Test func aCancelledTaskDoesNotStartTheCall() async throws {
        let ran = Atomic<Bool>(false)
        let task = Task { [io] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await io.call { _ in ran.store(true, ordering: .relaxed) }
        }
        #expect((try? await task.value) == nil)
        usleep(50_000)
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    @Test func pastTheLimitCallsFailInsteadOfPilingUp() async throws {
        let gate = Gate()
        final class Failures: Sendable { let list = Mutex<[FileSystemError]>([]) }
        let refusals = Failures()
        var tasks: [Task<Void, Never>] = []
        let budget = VolumeIO(maximumOutstanding: 6)
        // Start stuck calls until one is refused.
        for attempt in 1...(budget.maximumOutstanding + 4) {
            tasks.append(Task {
                do { try await budget.call { _ in gate.wait() } } catch let error as FileSystemError { refusals.list.withLock { $0.append(error) } } catch {}
            })
            _ = await waitUntil { gate.entered.load(ordering: .relaxed) == attempt - refusals.list.withLock(\.count) || !refusals.list.withLock(\.isEmpty) }
            if !refusals.list.withLock(\.isEmpty) { break }
        }
        let refused = refusals.list.withLock { $0 }
        #expect(refused.count == 1)
        #expect(refused.first?.code == .notResponding)
        let entered = gate.entered.load(ordering: .relaxed)
        #expect(entered == budget.maximumOutstanding)
        gate.release()
        for task in tasks { await task.value }
        #expect(await waitUntil { budget.outstandingCount == 0 })
        #expect(try await budget.call { _ in "free again" } == "free again")
    }
}
