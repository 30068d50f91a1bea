import SystemKit

extension FileSystemError {
    /// A place took no new call: its volume has calls stuck already, or too many are (the call
    /// was never started, unlike one that ran past its deadline).
    public static func refused(_ what: String) -> FileSystemError {
        FileSystemError(code: .notResponding, path: what, context: "\(what) is not responding" + refusedNote)
    }

    /// Whether the place refused the call rather than letting it run past its deadline.
    public var wasRefused: Bool { code == .notResponding && context?.hasSuffix(Self.refusedNote) == true }

    private static let refusedNote = " (earlier calls are still stuck)"
}
