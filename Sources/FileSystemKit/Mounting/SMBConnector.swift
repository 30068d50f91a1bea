import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// SMB through smbnetfs (a user-level FUSE mount of the SMB network): one smbnetfs per
/// connection, with a configuration of its own in a private folder (0700, the file 0600, as
/// smbnetfs demands) that holds the user name and password for this server only, read by
/// smbnetfs, never on a command line; it lives as long as the connection (smbnetfs reads its
/// configuration again every few minutes) and is removed on disconnect. The share is
/// `MOUNT/HOST/SHARE`; libsmbclient under smbnetfs reaches port 445 only (measured: it ignores `smb ports`).
public struct SMBConnector: ServerConnector {
    public init() {}

    public var name: String { "smbnetfs" }

    /// smbnetfs.conf for `address`: its credentials only, no browsing, a deadline per call.
    public static func configuration(_ address: ServerAddress, password: String?, seconds: Double) -> String {
        let user = address.user ?? "guest"
        return "auth \"\(address.host)\" \"\(user)\" \"\(password ?? "")\"\nuse_libsecret \"false\"\nsmb_query_browsers \"false\"\n"
            + "smb_timeout \(Int(seconds * 1000))\n"
    }

    public func connect(_ address: ServerAddress, password: String?, mountRoot: String, seconds: Double, cancel: CancelSignal?) throws(MountFailure) -> ServerConnection {
        guard ProgramSearch.executable("smbnetfs") != nil else {
            throw MountFailure(.other, "SMB needs smbnetfs, which is not installed (Debian: apt install smbnetfs)")
        }
        if let port = address.port, port != 445 {
            throw MountFailure(.other, "smbnetfs reaches SMB servers on port 445 only, not \(port)")
        }
        for text in [address.user ?? "", password ?? ""] where text.contains("\"") || text.contains("\n") || text.contains("\\") {
            throw MountFailure(.other, "smbnetfs cannot take a user name or password holding \", \\ or a line break")
        }
        let mountPoint = try ServerConnectors.mountPoint(root: mountRoot, label: address.label)
        let home = mountRoot + "/.smb-" + (mountPoint.split(separator: "/").last.map(String.init) ?? "share")
        func undo() {
            _ = CommandRun.run(["fusermount3", "-u", mountPoint], seconds: 5)
            _ = rmdir(mountPoint)
            ConnectionBook.removeTree(home)
        }
        guard makeFolder(home), makeFolder(home + "/.smb") else {
            _ = rmdir(mountPoint)
            throw MountFailure(.permissionDenied, "no private folder for smbnetfs' configuration under \(mountRoot)")
        }
        ConnectionBook.replace(home + "/.smb/smbnetfs.conf", with: Self.configuration(address, password: password, seconds: seconds))
        ConnectionBook.replace(home + "/.smb/smb.conf", with: "[global]\nclient min protocol = SMB2\n")
        let started = CommandRun.run(["smbnetfs", mountPoint, "-o", "log_file=/dev/null"], environment: ["HOME": home], seconds: seconds, cancel: cancel)
        guard started.succeeded, SFTPConnector.waitUntilMounted(mountPoint) else {
            undo()
            if started.ending == .cancelled { throw MountFailure(.cancelled, "connecting to \(address.host) was cancelled") }
            throw MountFailure(.other, "smbnetfs could not mount \(address.url): \(started.said)")
        }
        let folder = ([mountPoint, address.host, address.share] + (address.path.isEmpty ? [] : [address.path])).joined(separator: "/")
        // The first listing is where smbnetfs logs in: its failure says what went wrong.
        let listing = CommandRun.run(["ls", "-A", "--", folder], seconds: seconds + 1, cancel: cancel)
        guard listing.succeeded else {
            undo()
            throw Self.failure(listing, address: address, password: password != nil, seconds: seconds)
        }
        return ServerConnection(address: address, mountPoint: mountPoint, folder: folder, privateFolder: home)
    }

    static func failure(_ run: CommandRun, address: ServerAddress, password: Bool, seconds: Double) -> MountFailure {
        let said = run.said, host = address.host
        switch run.ending {
        case .cancelled: return MountFailure(.cancelled, "connecting to \(host) was cancelled")
        case .timedOut: return MountFailure(.timedOut, "\(host) did not answer within \(Int(seconds)) s")
        default: break
        }
        if said.contains("Permission denied") {
            if password { return MountFailure(.wrongPassword, "\(host) refused the user name or password for \(address.share)") }
            return MountFailure(.needsPassword, "\(host) wants a user name and password for \(address.share)")
        }
        if said.contains("No such file or directory") {
            return MountFailure(.noSuchShare, address.path.isEmpty ? "\(host) has no share called \(address.share)" : "\(address.share) on \(host) has no folder \(address.path)")
        }
        if said.contains("Input/output error") { return MountFailure(.other, "\(host) broke off the connection to \(address.share)") }
        return MountFailure(.other, "\(address.url) could not be opened: \(said)")
    }
}
