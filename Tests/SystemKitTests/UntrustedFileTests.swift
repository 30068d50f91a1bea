import Foundation
import Testing
@testable import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Files in places others write: refused at once when they are not regular files, never reached
/// through a link where links are refused, with `openat2` and with the walk older kernels take.
@Suite(.serialized) struct UntrustedFileTests {
    private func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("qlbrowse-untrusted-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func refusal(_ body: () throws(UntrustedFile.Failure) -> Int32) -> UntrustedFile.Failure? {
        do {
            close(try body())
            return nil
        } catch {
            return error
        }
    }

    @Test func aFIFOADeviceASocketAndAFolderAreRefusedAtOnceAndNamed() throws {
        let base = folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(mkfifo(base + "/fifo.jpg", 0o644) == 0)
        #expect(symlink("/dev/zero", base + "/zero.jpg") == 0)
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let socketPath = base + "/socket.jpg"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        let start = ContinuousClock.now
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(base + "/fifo.jpg") } == .refused(.fifo))
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(base + "/zero.jpg", links: .followed) } == .refused(.characterDevice))
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(base + "/socket.jpg") } == .refused(.socket))
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(base) } == .refused(.folder))
        #expect(ContinuousClock.now - start < .seconds(1), "a refusal waited")
        #expect(UntrustedFile.Failure.refused(.fifo).reason == "is a FIFO")
        #expect(UntrustedFile.Failure.refused(.characterDevice).reason == "is a device")
        #expect(UntrustedFile.read(base + "/fifo.jpg", upTo: 10) == nil)
    }

    @Test func aLinkIsRefusedUnlessTheCallerFollowsIt() throws {
        let base = folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "content".write(toFile: base + "/real.txt", atomically: false, encoding: .utf8)
        #expect(symlink(base + "/real.txt", base + "/link.txt") == 0)
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(base + "/link.txt") } == .refused(.symbolicLink))
        #expect(UntrustedFile.read(base + "/link.txt", links: .followed, upTo: 100) == Array("content".utf8))
        #expect(UntrustedFile.read(base + "/real.txt", upTo: 100) == Array("content".utf8))
        // The descriptor is blocking again: an ordinary read of the whole file.
        let fd = try UntrustedFile.openRegular(base + "/real.txt")
        defer { close(fd) }
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test(arguments: [true, false]) func beneathAFolderNoLinkAndNoWayOutIsTaken(openat2: Bool) throws {
        UntrustedFile.usesOpenat2.store(openat2, ordering: .relaxed)
        defer { UntrustedFile.usesOpenat2.store(true, ordering: .relaxed) }
        let base = folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let secret = folder()
        defer { try? FileManager.default.removeItem(atPath: secret) }
        try "secret".write(toFile: secret + "/thumb.png", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: base + "/.sh_thumbnails/normal", withIntermediateDirectories: true)
        try "mine".write(toFile: base + "/.sh_thumbnails/normal/own.png", atomically: false, encoding: .utf8)
        #expect(symlink(secret, base + "/.sh_thumbnails/large") == 0)
        #expect(symlink(secret + "/thumb.png", base + "/.sh_thumbnails/normal/linked.png") == 0)
        #expect(mkfifo(base + "/.sh_thumbnails/normal/fifo.png", 0o644) == 0)
        let fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(fd) }
        #expect(UntrustedFile.read(beneath: fd, ".sh_thumbnails/normal/own.png", upTo: 100) == Array("mine".utf8))
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(beneath: fd, ".sh_thumbnails/large/thumb.png") } == .refused(.symbolicLink))
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(beneath: fd, ".sh_thumbnails/normal/linked.png") } == .refused(.symbolicLink))
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(beneath: fd, ".sh_thumbnails/normal/fifo.png") } == .refused(.fifo))
        let relativeSecret = "../" + (secret as NSString).lastPathComponent + "/thumb.png"
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(beneath: fd, relativeSecret) } != nil)
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openRegular(beneath: fd, secret + "/thumb.png") } != nil)
        // Folders made on the way, none of them through a link.
        #expect(refusal { () throws(UntrustedFile.Failure) in try UntrustedFile.openFolder(beneath: fd, [".sh_thumbnails", "large"], creating: 0o755) }
                == .refused(.symbolicLink))
        let made = try UntrustedFile.openFolder(beneath: fd, [".sh_thumbnails", "x-large"], creating: 0o755)
        close(made)
        var status = stat()
        #expect(lstat(base + "/.sh_thumbnails/x-large", &status) == 0 && FileKind(mode: status.st_mode) == .folder)
    }
}
