import Testing
@testable import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// A worker that stopped reading (it died between two requests): the next request fails as
/// "worker gone"; it must not raise SIGPIPE, which would end the browser (or this test).
@Suite struct WorkerProcessTests {
    @Test func aRequestToAWorkerThatClosedItsInputFailsWithoutSIGPIPE() async throws {
        let worker = try WorkerProcess(executable: "/bin/sh", arguments: ["-c", "exec 0<&-; sleep 3"], stderrPath: nil)
        defer { worker.kill() }
        usleep(300_000)
        #expect(!worker.send(WorkerFrame(head: [UInt8](repeating: 0, count: 8), payload: [1, 2, 3])))
    }
}
