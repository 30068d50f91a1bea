import Testing
@testable import SystemKit

#if canImport(Glibc)
import Glibc
#endif

@Suite struct LocalSocketTests {
    private func folder() throws -> String {
        var template = Array("/tmp/qlbrowse-socket-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        return String(cString: made)
    }

    @Test func aConnectionCarriesBytesAndThePeersCredentials() throws {
        let dir = try folder()
        defer { unlink(dir + "/s"); rmdir(dir) }
        let listener = try LocalSocket.listen(at: dir + "/s")
        defer { listener.close() }
        var status = stat()
        #expect(lstat(dir + "/s", &status) == 0 && status.st_mode & 0o777 == 0o600, "only the owner may connect")
        let client = try LocalSocket.connect(to: dir + "/s")
        defer { client.close() }
        #expect(listener.waitReadable(milliseconds: 5000))
        let served = try listener.accept()
        defer { served.close() }
        for fd in [listener.fd, client.fd, served.fd] { #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0) }
        let peer = try served.peer()
        #expect(peer.pid == getpid() && peer.uid == geteuid() && peer.isOurUser)
        #expect(client.send([1, 2, 3]))
        #expect(served.waitReadable(milliseconds: 5000))
        var bytes = [UInt8](repeating: 0, count: 3)
        #expect(read(served.fd, &bytes, 3) == 3 && bytes == [1, 2, 3])
        #expect(!served.waitReadable(milliseconds: 0), "nothing more to read yet")
    }

    @Test func writingToAClosedPeerFailsWithoutSIGPIPE() throws {
        let dir = try folder()
        defer { unlink(dir + "/s"); rmdir(dir) }
        let listener = try LocalSocket.listen(at: dir + "/s")
        defer { listener.close() }
        let client = try LocalSocket.connect(to: dir + "/s")
        defer { client.close() }
        try listener.accept().close()
        // The default SIGPIPE would end the test process here.
        #expect(!client.send([UInt8](repeating: 7, count: 1 << 20)))
    }

    @Test func noListenerAndTooLongPathsAreErrors() throws {
        let dir = try folder()
        defer { rmdir(dir) }
        #expect(throws: FileSystemError.self) { try LocalSocket.connect(to: dir + "/none") }
        let long = dir + "/" + String(repeating: "x", count: 120)
        #expect(throws: FileSystemError.self) { try LocalSocket.listen(at: long) }
    }
}
