import FileSystemKit

/// Volumes as the user sees them: the volumes view, giving up on a stuck one, mounting a drive,
/// ejecting, connecting to a server.
public enum VolumesAction: Sendable, Equatable {
    /// `V`: the volumes view on or off.
    case toggle
    /// Esc while a stuck volume is awaited: give up on it and go back to where the user was.
    case abandonWaiting
    /// `E` in the volumes view: eject the volume under the cursor (a drive, or disconnect a server).
    case eject
    /// `C` in the volumes view: ask for a server's address.
    case connect
    /// ↑/↓ in the address prompt: the next or previous recent server.
    case recentServer(Int)
    /// Esc while a server is being connected or a drive mounted: give up on it.
    case cancelConnect
}
