import Testing
@testable import SystemKit

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemPipeTests {
    @Test func bothEndsAreCloseOnExec() throws {
        let pipe = try SystemPipe.make()
        defer { pipe.close() }
        #expect(fcntl(pipe.readEnd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.writeEnd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.readEnd, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func aWakePipeIsNonBlockingToo() throws {
        let pipe = try SystemPipe.make(nonBlocking: true)
        defer { pipe.close() }
        for fd in [pipe.readEnd, pipe.writeEnd] {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        }
        var byte: UInt8 = 0
        #expect(read(pipe.readEnd, &byte, 1) == -1 && errno == EAGAIN, "an empty wake pipe does not block its reader")
    }

    @Test func aTemporaryFileIsCloseOnExec() throws {
        let file = try TemporaryFile.create(template: "/tmp/.qlbrowse-test.XXXXXX.tmp", suffixLength: 4)
        defer { close(file.descriptor); unlink(file.path) }
        #expect(fcntl(file.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(file.path.hasPrefix("/tmp/.qlbrowse-test.") && file.path.hasSuffix(".tmp") && !file.path.contains("XXXXXX"))
    }
}
