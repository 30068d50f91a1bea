import FileSystemKit

/// What mounting, ejecting and connecting came to.
public enum DrivesResult: Sendable, Equatable {
    case found([Drive], recentServers: [String])
    case mounted(Drive, mountPoint: String)
    /// A server is mounted; `folder` is what to open.
    case connected(url: String, folder: String)
    case ejected(mountPoint: String, message: String)
    /// It failed; `url` names the server when a password may help.
    case failed(MountFailure, url: String?)
}
