import Foundation
import Testing

/// Drives and servers from the command line, on real parts the scenarios start themselves: loop
/// devices with ext4, FAT, nothing and a damaged ext4 (Tests/Support/drives.py); Samba with a user
/// and a password and sshd with a key, in a network namespace of their own
/// (Tests/Support/servers.py); and the same inside the browser, read from its screen
/// (Tests/Support/drives-browser.py); GVfs and the keyring through a fake gio and secret-tool
/// (Tests/Support/gvfs.py). They need root; run by scripts/test after the volume scenarios.
@Suite(.serialized, .enabled(if: getuid() == 0 && FileManager.default.fileExists(atPath: "/dev/loop-control"), "needs root and loop devices"))
struct DriveTests {
    @Test func drivesNotMountedAreListedMountedAndEjectedWithTheHolderNamed() throws {
        let result = TestEnvironment.runScenario("drives.py", folder: "qlbrowse-drives")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 11, "\(result.stdout)")
    }

    @Test(.enabled(if: ["/usr/sbin/smbd", "/usr/bin/smbnetfs", "/usr/sbin/sshd", "/usr/bin/sshfs"].allSatisfy { FileManager.default.fileExists(atPath: $0) },
                   "needs samba, smbnetfs, openssh-server and sshfs"))
    func serversConnectOverSMBAndSFTPAndEveryFailureIsASentence() throws {
        let result = TestEnvironment.runScenario("servers.py", folder: "qlbrowse-servers")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 16, "\(result.stdout)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/fusepy.py"), "needs python3-fusepy"))
    func serversThroughGVfsWithAFakeGioAndPasswordsKeptInTheKeyringOnlyWhenAsked() throws {
        let result = TestEnvironment.runScenario("gvfs.py", folder: "qlbrowse-gvfs")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 13, "\(result.stdout)")
    }

    @Test(.enabled(if: ["/usr/sbin/smbd", "/usr/bin/smbnetfs", "/usr/bin/sshfs"].allSatisfy { FileManager.default.fileExists(atPath: $0) },
                   "needs samba, smbnetfs and sshfs"))
    func insideTheBrowserADriveIsMountedAndEjectedAndAShareConnectedWithAPasswordAskedMasked() throws {
        let result = TestEnvironment.runScenario("drives-browser.py", folder: "qlbrowse-drives-browser")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 10, "\(result.stdout)")
    }
}
