import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `T` in a tab over plain SFTP (#26): the thumbnails are made on this computer from whole-file
/// copies and land in this computer's thumbnail cache, the jobs panel reporting the job.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserSFTPBatchTests {
    @Test func tInAnSFTPTabMakesThumbnailsInTheLocalCache() throws {
        let ssh = try #require(LoopbackSSH(), "sshd did not start")
        defer { ssh.stop() }
        let photos = ssh.folder.appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let names = ["landscape.jpg", "portrait-exif6.jpg", "progressive.jpg"]
        for name in names {
            LoopbackSSH.write(photos + "/" + name, try #require(FileDescriptorReader.readFile(TestEnvironment.fixtures.path + "/" + name, upTo: 1 << 26)))
        }
        let cache = ssh.folder.path + "/cache"
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --sftp --graphics symbols '\(ssh.url(photos))'", columns: 140, rows: 30,
                                      environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "XDG_STATE_HOME": ssh.folder.path + "/state",
                                                    "XDG_CONFIG_HOME": ssh.folder.path + "/config", "XDG_CACHE_HOME": cache])
        #expect(session.waitFor(30) { $0.contains("progressive.jpg") && $0.contains("sftp:127.0.0.1") }, "\(session.screen())")
        session.send("T")
        let large = cache + "/thumbnails/large"
        let made = TmuxSession.eventually(60) { DirectoryEntries.list(large).filter { $0.name.hasSuffix(".png") }.count >= names.count }
        #expect(made, "\(DirectoryEntries.list(large).map(\.name)):\n\(session.screen())")
        session.send("J")
        #expect(session.waitFor(30) { $0.contains(" made, ") && $0.contains("already cached") }, "the jobs panel's report:\n\(session.screen())")
        session.send("q")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
