import Testing
@testable import FileSystemKit
import SystemKit

/// The pure parts of mounting and connecting (issue 25): server addresses, mount options,
/// mount(8)'s and ssh's complaints as sentences, the holders' sentence.
@Suite struct MountingTests {
    @Test func serverAddressesAreParsedAndWrittenBackWithoutAPassword() throws {
        let smb = try ServerAddress(parsing: "smb://ann@nas.local/photos/2024/summer%20trip")
        #expect(smb.scheme == .smb && smb.user == "ann" && smb.host == "nas.local" && smb.share == "photos" && smb.path == "2024/summer trip")
        #expect(smb.label == "photos on nas.local" && smb.url == "smb://ann@nas.local/photos/2024/summer%20trip")
        let sftp = try ServerAddress(parsing: "sftp://host:2222/srv/data")
        #expect(sftp.scheme == .sftp && sftp.user == nil && sftp.port == 2222 && sftp.path == "srv/data" && sftp.label == "data on host")
        #expect(try ServerAddress(parsing: "ssh://host").scheme == .sftp)
        #expect(try ServerAddress(parsing: "sftp://host").label == "host")
    }

    @Test func addressesThatCannotWorkAreRefusedWithASentence() {
        for (text, words) in [("nas/photos", "not a server address: write smb://host/share, sftp://host/folder or ssh://host/folder"),
                              ("ftp://nas/x", "ftp:// is not a kind of server qlbrowse connects to: smb://, sftp:// and ssh:// are"),
                              ("smb://nas", "names no share"), ("smb://ann:secret@nas/x", "a password does not go in the address"),
                              ("sftp://host:99999/x", "is not a port number")] {
            #expect(throws: MountFailure.self, "\(text)") { try ServerAddress(parsing: text) }
            do { _ = try ServerAddress(parsing: text) } catch { #expect(error.message.contains(words), "\(text): \(error.message)") }
        }
    }

    @Test func fileSystemsWithoutOwnersAreMountedAsTheUser() {
        let ann = MountUser(name: "ann", uid: 1000, gid: 100)
        #expect(SystemMounter.options(for: "vfat", user: ann).contains("uid=1000") && SystemMounter.options(for: "vfat", user: ann).contains("gid=100"))
        #expect(SystemMounter.options(for: "exfat", user: ann).contains("uid=1000"))
        #expect(SystemMounter.options(for: "ntfs3", user: ann).contains("umask=0077"))
        #expect(SystemMounter.options(for: "ext4", user: ann) == ["nosuid", "nodev"])
        let sudo = MountUser(environment: ProcessEnvironment(["SUDO_USER": "ann", "SUDO_UID": "1000", "SUDO_GID": "100", "USER": "root"]))
        #expect(sudo == ann)
    }

    @Test func mountsComplaintsBecomeSentencesWithWhatToRun() {
        let drive = Drive(device: "/dev/sdb1", fsType: "vfat", label: "STICK", uuid: "", size: 1, isRemovable: true)
        let damaged = SystemMounter.failure(of: CommandRun(ending: .exited(32), output: "", errors: "mount: /media/ann/STICK: wrong fs type, bad option, bad superblock on /dev/sdb1, missing codepage or helper program, or other error."), drive: drive)
        #expect(damaged.kind == .damaged && damaged.message.contains("sudo fsck.vfat /dev/sdb1"))
        let unknown = SystemMounter.failure(of: CommandRun(ending: .exited(32), output: "", errors: "mount: unknown filesystem type 'vfat'."), drive: drive)
        #expect(unknown.kind == .unknownFileSystem)
        let blank = SystemMounter.unknownFileSystem(Drive(device: "/dev/sdc", fsType: "", label: "", uuid: "", size: 1, isRemovable: true))
        #expect(blank.message.contains("sudo fsck /dev/sdc"))
    }

    @Test func sshsComplaintsBecomeSentences() throws {
        let address = try ServerAddress(parsing: "sftp://ann@host/x")
        let keys = CommandRun(ending: .exited(1), output: "", errors: "ann@host: Permission denied (publickey,password).\nread: Connection reset by peer")
        #expect(SFTPConnector.failure(keys, address: address, password: false, seconds: 10).kind == .needsPassword)
        #expect(SFTPConnector.failure(keys, address: address, password: true, seconds: 10).kind == .wrongPassword)
        let keyOnly = CommandRun(ending: .exited(1), output: "", errors: "ann@host: Permission denied (publickey).")
        #expect(SFTPConnector.failure(keyOnly, address: address, password: false, seconds: 10).kind == .permissionDenied)
        let hostKey = CommandRun(ending: .exited(1), output: "", errors: "Host key verification failed.")
        #expect(SFTPConnector.failure(hostKey, address: address, password: false, seconds: 10).message.contains("host key is not known"))
    }

    @Test func sshfsArgumentsCarryNoPasswordAndEscapeCommasInTheSSHCommand() throws {
        let address = try ServerAddress(parsing: "sftp://ann@host:2200/srv")
        let words = SFTPConnector(sshCommand: "ssh -o Ciphers=aes128-ctr,aes256-ctr").arguments(address, mountPoint: "/m", password: true, seconds: 10)
        #expect(words.prefix(3) == ["sshfs", "ann@host:/srv", "/m"] && words.contains("2200"))
        #expect(words.last!.contains("ssh_command=ssh -o Ciphers=aes128-ctr\\,aes256-ctr") && words.last!.contains("password_stdin"))
    }

    @Test func holdersAreNamedByProgramAndFile() {
        #expect(FileHolder(pid: 4121, program: "bash", path: "/media/STICK/photos", isFolder: true).sentence == "bash (pid 4121) has its folder open")
        #expect(FileHolder(pid: 77, program: "vim", path: "/media/STICK/notes.txt", isFolder: false).sentence == "vim (pid 77) has notes.txt open")
    }

    @Test func serversMountedInTheRuntimeFolderAreVolumesItsPlumbingIsNot() {
        let line = { (point: String, type: String) in
            MountTable.Mount(id: 1, parentID: 0, device: "0:50", mountPoint: point, options: ["rw"], fsType: type, source: "x", superOptions: [])
        }
        #expect(VolumeClassifier.kind(of: line("/run/user/1000/qlbrowse/servers/photos on nas", "fuse.smbnetfs"), isRemovableDevice: false) == .network)
        #expect(VolumeClassifier.kind(of: line("/run/user/1000/gvfs", "fuse.gvfsd-fuse"), isRemovableDevice: false) == .network)
        #expect(VolumeClassifier.kind(of: line("/run/user/1000", "tmpfs"), isRemovableDevice: false) == .hidden)
        #expect(VolumeClassifier.kind(of: line("/run/user/1000/doc", "fuse.portal"), isRemovableDevice: false) == .hidden)
    }
}
