import Dispatch
import Places
import SystemKit
import Testing

/// Waiting for a place's call: from synchronous code, and for less than the place's own deadline.
@Suite struct PlaceCallTests {
    @Test(.timeLimit(.minutes(1))) func aCallerThatMustAnswerSoonerGivesUpAtItsOwnDeadline() async throws {
        // The call answers only once the caller has given up: waiting for it would never end.
        let (hung, release) = AsyncStream<Void>.makeStream()
        do {
            _ = try await PlaceCall.within(seconds: 0.2, "/mnt/hung") { () throws(FileSystemError) -> Int in
                for await _ in hung {}
                return 1
            }
            Issue.record("a call that never answered answered")
        } catch {
            #expect(error.code == .notResponding && error.message == "/mnt/hung is not responding")
        }
        release.finish()
        // Calls that answer at once: a deadline long enough for a machine busy with the whole test run
        // (2 s was missed under a load of 16 in CI).
        #expect(try await PlaceCall.within(seconds: 30, "/") { () throws(FileSystemError) in 7 } == 7)
        await #expect(throws: FileSystemError.self) {
            try await PlaceCall.within(seconds: 30, "/") { () throws(FileSystemError) -> Int in throw FileSystemError(errno: 2, path: "/x") }
        }
    }

    @Test func synchronousCodeWaitsForTheAnswer() async throws {
        // Waited for on a thread of its own, not on one of the test run's cooperative threads
        // (two on two cores): there the wait held a thread its own answer needed while a slow
        // synchronous test held the other, and CI stalled for a minute.
        let (answer, failure) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int?, FileSystemError?), Never>) in
            let started = DetachedThread.start(stackSize: 512 * 1024) {
                let answer = try? PlaceCall.wait { () throws(FileSystemError) in 41 + 1 }
                var failure: FileSystemError?
                do throws(FileSystemError) {
                    _ = try PlaceCall.wait { () throws(FileSystemError) -> Int in throw .cancelled }
                } catch {
                    failure = error
                }
                continuation.resume(returning: (answer, failure))
            }
            if !started { continuation.resume(returning: (nil, nil)) }
        }
        #expect(answer == 42)
        #expect(failure?.code == .cancelled)
    }
}
