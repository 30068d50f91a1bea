import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// SMB and SFTP through the user's GVfs session (`gio mount`), where it runs: the connection is
/// the desktop's own (Files shows it, and it lives as GVfs' mounts do), its folder is gvfsd-fuse's
/// `$XDG_RUNTIME_DIR/gvfs/NAME`, and disconnecting is `gio mount -u`. The password goes to gio
/// on its standard input, where it asks for it; never in its arguments or environment.
public struct GVfsConnector: ServerConnector {
    public let environment: ProcessEnvironment

    public init(environment: ProcessEnvironment = .current) { self.environment = environment }

    public var name: String { "GVfs" }

    /// gio's arguments: the address alone (a password is never part of it).
    public static func mountArguments(_ address: ServerAddress) -> [String] { ["gio", "mount", address.url] }

    /// Disconnecting `target` (the address connected, or a folder under gvfsd-fuse's root).
    public static func unmountArguments(_ target: String) -> [String] { ["gio", "mount", "-u", target] }

    public func connect(_ address: ServerAddress, password: String?, mountRoot: String, seconds: Double, cancel: CancelSignal?) throws(MountFailure) -> ServerConnection {
        guard let root = GVfs.root(environment: environment) else { throw MountFailure(.other, "GVfs has no folder: XDG_RUNTIME_DIR is not set") }
        let run = CommandRun.run(Self.mountArguments(address), input: GVfs.answers(for: address, password: password), seconds: seconds + 2, cancel: cancel)
        // gvfsd-fuse shows the mount a moment after gio returns.
        var name: String?
        for _ in 0..<(run.succeeded ? 100 : 0) {
            name = GVfs.folderName(for: address, among: DirectoryEntries.list(root).map(\.name))
            if name != nil { break }
            usleep(20_000)
        }
        guard run.succeeded, let name else {
            if run.succeeded { _ = CommandRun.run(Self.unmountArguments(address.url), seconds: 5) }
            throw Self.failure(run, address: address, password: password != nil, seconds: seconds)
        }
        let mountPoint = root + "/" + name
        // The folder is the share's top (SMB) or the server's root (SFTP): the path lies under it.
        return ServerConnection(address: address, mountPoint: mountPoint, folder: address.path.isEmpty ? mountPoint : mountPoint + "/" + address.path)
    }

    /// What gio said, as a sentence: a password asked with none given, asked again after the
    /// one given (wrong), or GVfs' own words.
    static func failure(_ run: CommandRun, address: ServerAddress, password: Bool, seconds: Double) -> MountFailure {
        let host = address.host, said = run.said, asked = GVfs.passwordPrompts(run.output)
        switch run.ending {
        case .cancelled: return MountFailure(.cancelled, "connecting to \(host) was cancelled")
        case .notStarted: return MountFailure(.other, "gio could not be started")
        default: break
        }
        if !password && asked > 0 { return MountFailure(.needsPassword, "\(host) wants a user name and password") }
        if password && (asked > 1 || said.contains("Permission denied") || said.contains("Login failed")) {
            return MountFailure(.wrongPassword, "\(host) refused the user name or password")
        }
        if run.ending == .timedOut { return MountFailure(.timedOut, "\(host) did not answer within \(Int(seconds)) s") }
        if said.contains("No such file or directory") || said.contains("not found") || said.contains("does not exist") {
            return MountFailure(.noSuchShare, address.scheme == .smb ? "\(host) has no share called \(address.share)" : "\(host) has no folder /\(address.path)")
        }
        if run.succeeded { return MountFailure(.other, "GVfs mounted \(address.url) but its folder did not appear under \(GVfs.root(environment: .current) ?? "gvfs")") }
        return MountFailure(.other, "\(address.url) could not be mounted through GVfs: \(said.isEmpty ? "gio failed" : said)")
    }
}
