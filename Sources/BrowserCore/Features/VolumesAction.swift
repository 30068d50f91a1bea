/// Volumes as the user sees them: the volumes view, and giving up on a stuck one.
public enum VolumesAction: Sendable, Equatable {
    /// `V`: the volumes view on or off.
    case toggle
    /// Esc while a stuck volume is awaited: give up on it and go back to where the user was.
    case abandonWaiting
}
