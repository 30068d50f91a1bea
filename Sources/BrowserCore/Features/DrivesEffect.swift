import FileSystemKit

/// Mounting, ejecting and connecting, carried out off the UI thread by the shell.
public enum DrivesEffect: Sendable, Equatable {
    /// Look for drives not mounted (and read the recent servers).
    case scan
    case mount(Drive)
    /// Eject `volume` unless `ownHolds` (the browser's own work there, in words) or another
    /// process holds files there.
    case eject(Volume, ownHolds: [String])
    /// Mount a server; `password` only when the user typed one.
    case connect(url: String, password: String?)
    /// Give up the connection or mount under way.
    case cancel
    /// The answer to "keep the password in the keyring?" for the server just connected: the
    /// shell keeps the password it holds (`keep`) or forgets it.
    case keepPassword(url: String, keep: Bool)
}
