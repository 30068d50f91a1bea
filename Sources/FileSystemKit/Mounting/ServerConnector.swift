import Synchronization
import SystemKit

/// Mounts a server's share or folder where the rest of qlbrowse sees it as one more volume (the
/// volume monitor, deadlines, jobs that stop and resume): one implementation per way there is
/// (sshfs for SFTP, smbnetfs for SMB), chosen by `ServerConnectors`.
public protocol ServerConnector: Sendable {
    /// What mounts it, for messages ("sshfs", "smbnetfs").
    var name: String { get }
    /// Mounts `address` under `mountRoot`, with `password` when the server wants one, within
    /// `seconds`; throws a sentence (`needsPassword` when it wants one and none was given).
    func connect(_ address: ServerAddress, password: String?, mountRoot: String, seconds: Double, cancel: CancelSignal?) throws(MountFailure) -> ServerConnection
}

/// A server mounted: where, and the folder to open (under the mount point).
public struct ServerConnection: Sendable, Equatable {
    public let address: ServerAddress
    public let mountPoint: String
    public let folder: String
    /// A private folder the connector keeps for the connection's life (smbnetfs' configuration),
    /// removed on disconnect; empty when none.
    public let privateFolder: String

    public init(address: ServerAddress, mountPoint: String, folder: String, privateFolder: String = "") {
        self.address = address
        self.mountPoint = mountPoint
        self.folder = folder
        self.privateFolder = privateFolder
    }
}

/// The connector for an address, and the steps every connection shares.
public enum ServerConnectors {
    /// The connector for `address`: GVfs where the user's session runs it (`GVfs.isAvailable`),
    /// else a FUSE mount of qlbrowse's own for the scheme; `sshCommand` replaces `ssh` for sshfs
    /// (QLBROWSE_SSH_COMMAND or `ssh_command` in config.toml).
    public static func connector(for address: ServerAddress, sshCommand: String?, environment: ProcessEnvironment = .current) -> any ServerConnector {
        if GVfs.isAvailable(environment: environment) { return GVfsConnector(environment: environment) }
        switch address.scheme {
        case .sftp: return SFTPConnector(sshCommand: sshCommand)
        case .smb: return SMBConnector()
        }
    }

    /// Connects, first asking whether the server's port answers at all, so that an unknown
    /// host, a refusal and silence are said the same way whatever tool mounts.
    public static func connect(_ address: ServerAddress, password: String?, sshCommand: String?, environment: ProcessEnvironment = .current,
                               seconds: Double = 10, cancel: CancelSignal? = nil) throws(MountFailure) -> ServerConnection {
        let port = address.port ?? address.scheme.defaultPort
        switch ServerProbe.connect(host: address.host, port: port, seconds: seconds, cancel: cancel) {
        case .reachable: break
        case .unknownHost: throw MountFailure(.unknownHost, "there is no server called \(address.host) (the name does not resolve)")
        case .refused: throw MountFailure(.refused, "\(address.host) refused the connection on port \(port): no \(address.scheme == .smb ? "SMB" : "SSH") server runs there")
        case .noAnswer: throw MountFailure(.timedOut, "\(address.host) did not answer within \(Int(seconds)) s")
        case .cancelled: throw MountFailure(.cancelled, "connecting to \(address.host) was cancelled")
        }
        let book = ConnectionBook(environment: environment)
        if let existing = book.connections().first(where: { $0.address == address }), book.isMounted(existing.mountPoint) { return existing }
        let root = try book.mountRoot()
        let connection = try connector(for: address, sshCommand: sshCommand, environment: environment).connect(address, password: password, mountRoot: root, seconds: seconds, cancel: cancel)
        book.remember(connection)
        return connection
    }

    /// A fresh, empty folder `root/label` (`label 2` when taken) to mount on.
    static func mountPoint(root: String, label: String) throws(MountFailure) -> String {
        for number in 1...50 {
            let folder = root + "/" + (number == 1 ? label : "\(label) \(number)")
            if makeFolder(folder) { return folder }
        }
        throw MountFailure(.other, "no free folder for \(label) under \(root)")
    }
}

extension ServerConnectors {
    /// Connects as `connect` does; when the server wants a password and none was given, the
    /// one kept in `keyring` is tried before the user is asked. Says whether it was the keyring's.
    public static func connect(_ address: ServerAddress, password: String?, keyring: Keyring?, sshCommand: String?, environment: ProcessEnvironment = .current,
                               seconds: Double = 10, cancel: CancelSignal? = nil) throws(MountFailure) -> (connection: ServerConnection, fromKeyring: Bool) {
        do throws(MountFailure) {
            return (try connect(address, password: password, sshCommand: sshCommand, environment: environment, seconds: seconds, cancel: cancel), false)
        } catch where error.kind == .needsPassword && password == nil {
            guard let kept = keyring?.password(for: address) else { throw error }
            return (try connect(address, password: kept, sshCommand: sshCommand, environment: environment, seconds: seconds, cancel: cancel), true)
        }
    }
}
