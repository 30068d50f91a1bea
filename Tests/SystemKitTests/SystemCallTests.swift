import Synchronization
import Testing
@testable import SystemKit

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemCallTests {
    @Test func anInterruptedCallIsTriedAgain() {
        var attempts = 0
        let result = SystemCall.retryingInterrupts { () -> Int32 in
            attempts += 1
            if attempts < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(attempts == 3)
    }

    @Test func anotherFailureComesBackAtOnce() {
        var attempts = 0
        let result = SystemCall.retryingInterrupts { () -> Int32 in
            attempts += 1
            errno = EACCES
            return -1
        }
        #expect(result == -1)
        #expect(attempts == 1)
    }

    @Test func aFailedCallThrowsTheCallThePathAndTheErrno() {
        #expect {
            _ = try SystemCall.run("open", path: "/nonexistent/qlbrowse") { open("/nonexistent/qlbrowse", O_RDONLY | O_CLOEXEC) }
        } throws: { error in
            guard let error = error as? FileSystemError else { return false }
            return error.code == .notFound && error.call == "open" && error.path == "/nonexistent/qlbrowse" && error.errno == ENOENT
        }
    }

    @Test func errnosMapToCodes() {
        #expect(FileSystemError.Code(errno: ENOENT) == .notFound)
        #expect(FileSystemError.Code(errno: EACCES) == .permissionDenied)
        #expect(FileSystemError.Code(errno: EPERM) == .permissionDenied)
        #expect(FileSystemError.Code(errno: EEXIST) == .exists)
        #expect(FileSystemError.Code(errno: ENOSPC) == .noSpace)
        #expect(FileSystemError.Code(errno: EDQUOT) == .noSpace)
        #expect(FileSystemError.Code(errno: EROFS) == .readOnly)
        #expect(FileSystemError.Code(errno: EXDEV) == .crossDevice)
        #expect(FileSystemError.Code(errno: ENOTCONN) == .volumeGone)
        #expect(FileSystemError.Code(errno: E2BIG) == .other)
    }

    @Test func theMessageNamesThePathAndWhatToDo() {
        #expect(FileSystemError(errno: EACCES, call: "open", path: "/x").message == "permission denied: /x (ask the owner, or use sudo)")
        #expect(FileSystemError(errno: ENOSPC, call: "write", path: "/mnt/usb/a").message == "no space left on device: /mnt/usb/a (free some space on the volume)")
    }

    @Test func theMessageKeepsWhatWasBeingDone() {
        // The form users (and the integration tests) know: "what: reason".
        #expect(FileSystemError.system(ENOENT, "cannot open /nonexistent/folder").message == "cannot open /nonexistent/folder: No such file or directory")
        #expect(FileSystemError.cancelled.message == "cancelled")
        #expect(FileSystemError.sizeMismatch(expected: 10, found: 4).message == "the copy has 4 bytes, the source 10")
        #expect(FileSystemError.notResponding("/mnt/share").message == "/mnt/share is not responding")
    }

    @Test func waitingForAChildGivesItsStatus() {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup("exit 3"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, argv, ProcessEnvironment.spawnEnvironment) == 0)
        #expect((SystemCall.waitForExit(pid) >> 8) & 0xff == 3)
    }
}
