import Testing
@testable import SystemKit

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PrivateFolderTests {
    @Test func onlyARealFolderOfOursClosedToOthersIsTrusted() {
        let me = geteuid()
        #expect(PrivateFolder.problem(mode: S_IFDIR | 0o700, owner: me, user: me) == nil)
        #expect(PrivateFolder.problem(mode: S_IFLNK | 0o777, owner: me, user: me)?.contains("not a folder") == true)
        #expect(PrivateFolder.problem(mode: S_IFDIR | 0o700, owner: me + 1, user: me)?.contains("belongs to user") == true)
        #expect(PrivateFolder.problem(mode: S_IFDIR | 0o755, owner: me, user: me)?.contains("open to other users") == true)
    }

    @Test func aMissingFolderIsMadePrivateAndAnOpenOneRefused() throws {
        var template = Array("/tmp/qlbrowse-private-XXXXXX".utf8CString)
        let parent = String(cString: try #require(mkdtemp(&template)))
        defer { rmdir(parent + "/made"); rmdir(parent + "/open"); unlink(parent + "/link"); rmdir(parent) }
        try PrivateFolder.make(parent + "/made")
        var status = stat()
        #expect(stat(parent + "/made", &status) == 0 && status.st_mode & 0o777 == 0o700)
        try PrivateFolder.make(parent + "/made")  // there already: checked, fine
        #expect(mkdir(parent + "/open", 0o755) == 0)
        chmod(parent + "/open", 0o755)
        #expect(throws: FileSystemError.self) { try PrivateFolder.make(parent + "/open") }
        #expect(symlink(parent + "/made", parent + "/link") == 0)
        #expect(throws: FileSystemError.self) { try PrivateFolder.make(parent + "/link") }
    }

    @Test func aHeldLockIsNotHadTwice() throws {
        let path = "/tmp/qlbrowse-lock-\(getpid())"
        defer { unlink(path) }
        let held = try #require(try FileLock.acquire(path, waitingUpTo: 1))
        #expect(try FileLock.acquire(path, waitingUpTo: 0) == nil)
        held.release()
        let again = try FileLock.acquire(path, waitingUpTo: 0)
        #expect(again != nil)
        again?.release()
    }
}
