import FileSystemKit

/// What mounting, ejecting and connecting came to.
public enum DrivesResult: Sendable, Equatable {
    case found([Drive], recentServers: [String])
    case mounted(Drive, mountPoint: String)
    /// A server is mounted; `folder` is what to open. `canKeep`: with a password the user typed,
    /// which the shell holds until asked whether to keep it in the keyring.
    case connected(url: String, folder: String, canKeep: Bool = false)
    /// A remote place is connected (`ssh://…`, `host:path`): `folder` (under its prefix,
    /// `PlacePath`) opens in a new tab beside the others.
    case openedRemote(url: String, folder: String)
    case ejected(mountPoint: String, message: String)
    /// It failed; `url` names the server when a password may help.
    case failed(MountFailure, url: String?)
}
