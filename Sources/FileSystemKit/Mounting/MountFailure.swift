/// Why mounting, connecting, ejecting or disconnecting did not happen, as one sentence for the
/// user, and its kind, for what the browser does next (ask the password again, say nothing
/// after Esc).
public struct MountFailure: Error, Sendable, Equatable {
    /// What went wrong, in the terms the user can act on.
    public enum Kind: Sendable, Equatable {
        /// The server wants a password and none was given.
        case needsPassword
        /// The server refused the user name or password.
        case wrongPassword
        case unknownHost
        case refused
        /// No answer within the deadline.
        case timedOut
        case noSuchShare
        case permissionDenied
        /// The file system is not one this machine can mount, or none was found.
        case unknownFileSystem
        /// The file system is damaged; the sentence says what to run.
        case damaged
        /// Files there are held open (eject, disconnect): the sentence names by whom.
        case busy
        /// The user gave up (Esc).
        case cancelled
        /// Not mounted, no tool for it, or anything else; the sentence says which.
        case other
    }

    public let kind: Kind
    /// The sentence shown to the user (without "qlbrowse:").
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
