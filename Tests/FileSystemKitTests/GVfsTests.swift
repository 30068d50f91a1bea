import Testing
@testable import FileSystemKit
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// GVfs, the keyring and udisks2's power-off (issue 25): when GVfs counts as running, what gio
/// reads on its standard input, which gvfsd-fuse folder is the server's, gio's answers as
/// sentences, secret-tool's arguments (never the password), and the drive powered off.
@Suite struct GVfsTests {
    /// A folder of its own with `mountinfo` lines written in it.
    func folder(_ mountinfo: String) -> String {
        let path = "/tmp/qlbrowse-gvfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkdir(path, 0o700) == 0)
        ConnectionBook.replace(path + "/mountinfo", with: mountinfo)
        return path
    }

    @Test func gvfsCountsAsRunningOnlyWithASessionBusAndGvfsdFusesMount() {
        let run = folder("")
        defer { ConnectionBook.removeTree(run) }
        let line = "90 30 0:77 / \(run)/gvfs rw,nosuid,nodev - fuse.gvfsd-fuse gvfsd-fuse rw,user_id=1000,group_id=1000\n"
        ConnectionBook.replace(run + "/with", with: line)
        let withBus = ProcessEnvironment(["XDG_RUNTIME_DIR": run, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(run)/bus"])
        let noBus = ProcessEnvironment(["XDG_RUNTIME_DIR": run])
        #expect(!GVfs.isAvailable(environment: noBus, mountinfoPath: run + "/with"))
        #expect(!GVfs.isAvailable(environment: withBus, mountinfoPath: run + "/mountinfo"))
        #expect(!GVfs.isAvailable(environment: ProcessEnvironment([:]), mountinfoPath: run + "/with"))
    }

    @Test func gioReadsTheUserDomainAndPasswordForSMBAndThePasswordAloneForSFTP() throws {
        let smb = try ServerAddress(parsing: "smb://ann@nas/pub")
        #expect(GVfs.answers(for: smb, password: "tiger lily") == Array("ann\n\ntiger lily\n".utf8))
        #expect(GVfs.answers(for: try ServerAddress(parsing: "smb://nas/pub"), password: "x") == Array("\n\nx\n".utf8))
        #expect(GVfs.answers(for: try ServerAddress(parsing: "sftp://host/srv"), password: "x") == Array("x\n".utf8))
        #expect(GVfs.answers(for: smb, password: nil) == [])
        #expect(GVfsConnector.mountArguments(smb) == ["gio", "mount", "smb://ann@nas/pub"])
        #expect(GVfsConnector.unmountArguments("smb://ann@nas/pub") == ["gio", "mount", "-u", "smb://ann@nas/pub"])
    }

    @Test func theServersFolderIsFoundAmongGvfsdFusesByItsSpec() throws {
        let names = ["sftp:host=other,user=ann", "smb-share:server=nas,share=other", "smb-share:domain=WG,server=NAS,share=my%20pub,user=ann",
                     "sftp:host=host,port=2222,user=root", "sftp:host=host,user=root"]
        #expect(GVfs.folderName(for: try ServerAddress(parsing: "smb://ann@nas/my%20pub/photos"), among: names) == names[2])
        #expect(GVfs.folderName(for: try ServerAddress(parsing: "smb://nas/other"), among: names) == names[1])
        #expect(GVfs.folderName(for: try ServerAddress(parsing: "smb://bob@nas/other"), among: names) == nil)
        #expect(GVfs.folderName(for: try ServerAddress(parsing: "sftp://root@host:2222/srv"), among: names) == names[3])
        #expect(GVfs.folderName(for: try ServerAddress(parsing: "sftp://root@host/srv"), among: names) == names[4])
        let environment = ProcessEnvironment(["XDG_RUNTIME_DIR": "/run/user/1"])
        #expect(GVfs.isMountFolder("/run/user/1/gvfs/" + names[0], environment: environment))
        #expect(!GVfs.isMountFolder("/run/user/1/gvfs", environment: environment) && !GVfs.isMountFolder("/run/user/1/gvfs/a/b", environment: environment))
    }

    @Test func giosAnswersBecomeSentences() throws {
        let address = try ServerAddress(parsing: "smb://ann@nas/pub")
        let asked = "Authentication Required\nEnter user and password for share “pub” on “nas”:\nUser [ann]: Domain [WORKGROUP]: Password: "
        let none = GVfsConnector.failure(CommandRun(ending: .exited(2), output: asked, errors: "gio: smb://ann@nas/pub/: Password dialog cancelled"),
                                         address: address, password: false, seconds: 10)
        #expect(none.kind == .needsPassword)
        let wrong = GVfsConnector.failure(CommandRun(ending: .exited(2), output: asked + "\n" + asked, errors: "gio: smb://ann@nas/pub/: Password dialog cancelled"),
                                          address: address, password: true, seconds: 10)
        #expect(wrong.kind == .wrongPassword && wrong.message == "nas refused the user name or password")
        let missing = GVfsConnector.failure(CommandRun(ending: .exited(2), output: "", errors: "gio: smb://ann@nas/pub/: Error mounting location: No such file or directory"),
                                            address: address, password: false, seconds: 10)
        #expect(missing.kind == .noSuchShare && missing.message == "nas has no share called pub")
    }

    @Test func theKeyringIsGivenTheServerNeverThePassword() throws {
        let address = try ServerAddress(parsing: "smb://ann@nas:445/pub/photos/2024")
        #expect(Keyring.attributes(address) == ["qlbrowse-server", "smb://ann@nas:445/pub"])
        #expect(Keyring.storeArguments(address) == ["secret-tool", "store", "--label=qlbrowse: ann@nas", "qlbrowse-server", "smb://ann@nas:445/pub"])
        #expect(Keyring.lookupArguments(try ServerAddress(parsing: "sftp://host/srv/x")) == ["secret-tool", "lookup", "qlbrowse-server", "sftp://host"])
    }

    @Test func udisksPowersOffThePartitionsWholeDrive() {
        let sys = folder("")
        defer { ConnectionBook.removeTree(sys) }
        for path in ["/devices", "/devices/usb1", "/devices/usb1/block", "/devices/usb1/block/sdb", "/devices/usb1/block/sdb/sdb1", "/class"] {
            #expect(mkdir(sys + path, 0o700) == 0)
        }
        ConnectionBook.replace(sys + "/devices/usb1/block/sdb/sdb1/partition", with: "1\n")
        #expect(symlink("../devices/usb1/block/sdb/sdb1", sys + "/class/sdb1") == 0)
        #expect(symlink("../devices/usb1/block/sdb", sys + "/class/sdb") == 0)
        #expect(UDisksMounter.powerOffCommand(for: "/dev/sdb1", sysBlock: sys + "/class") == ["udisksctl", "power-off", "--no-user-interaction", "-b", "/dev/sdb"])
        #expect(UDisksMounter.powerOffCommand(for: "/dev/sdb", sysBlock: sys + "/class") == ["udisksctl", "power-off", "--no-user-interaction", "-b", "/dev/sdb"])
        #expect(UDisksMounter.powerOffCommand(for: "/dev/loop3", sysBlock: sys + "/class") == nil)
        #expect(UDisksMounter.powerOffCommand(for: "gvfsd-fuse", sysBlock: sys + "/class") == nil)
    }
}
