@testable import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The link to the remote process when that process stops reading: a request written then fails
/// as a lost link; it must not raise SIGPIPE, which would end the whole browser (or this test).
@Suite struct RemoteConnectionTests {
    @Test func aRequestToAProcessThatClosedItsInputFailsWithoutSIGPIPE() throws {
        // Closes its standard input at once but keeps standard output open, so the link is not
        // seen to end before the hello is written into a channel nobody reads.
        let connection = try RemoteConnection(command: ["/bin/sh", "-c", "exec 0<&-; sleep 3"], host: "closed", echoErrors: false)
        defer { connection.kill() }
        usleep(300_000)
        #expect(throws: FileSystemError.self) {
            _ = try connection.hello(RemoteHello(version: 1, software: "test"), within: 5)
        }
        #expect(connection.gone != nil)
    }
}
