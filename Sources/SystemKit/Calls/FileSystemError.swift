#if canImport(Glibc)
import Glibc
#endif

/// The one error the system layer and FileSystemKit report: what failed (`call` on `path`), the
/// errno behind it, a code to switch on, and a message that names the path and says what the
/// user can do ("cannot open /x: Permission denied (ask the owner, or use sudo)").
///
/// `context` is what was being done, in the words the program has always shown ("cannot open
/// /x"); the message keeps that form, so the texts users and tests know stay the same.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, for code that decides (stop everything, skip one file, try again).
    public enum Code: String, Sendable, Equatable {
        case notFound, permissionDenied, exists, notEmpty, noSpace, readOnly, crossDevice
        /// The volume itself is gone (unplugged, unmounted, server or FUSE daemon down): see `VolumeGone`.
        case volumeGone
        /// Not started or given up: calls on the volume are stuck, or too many are.
        case notResponding
        case cancelled
        /// The copy's size differs from the source's.
        case sizeMismatch
        /// The source changed (size, modification or change time) while it was copied.
        case sourceChanged
        /// The copy read back differs from the source, which did not change: the target did not keep what was written.
        case contentDiffers
        case unsupported, invalid, resourceExhausted, other
    }

    /// What kind of failure (`.notFound`, `.volumeGone`…).
    public let code: Code
    /// The file or folder the call was about ("" when none).
    public let path: String
    /// The system call that failed ("open", "renameat2"), "" when the failure is not a call's.
    public let call: String
    /// The errno, 0 when the failure is not a system call's (cancelled, not responding).
    public let errno: Int32
    /// What was being done, as shown to the user ("cannot open /x"); nil: say it from the code.
    public let context: String?

    /// A failure described in full (most code uses `init(errno:call:path:context:)` or `system`).
    public init(code: Code, path: String = "", call: String = "", errno: Int32 = 0, context: String? = nil) {
        self.code = code
        self.path = path
        self.call = call
        self.errno = errno
        self.context = context
    }

    /// The failure of `call` on `path` with `errno`, its code mapped from the errno.
    public init(errno: Int32, call: String = "", path: String = "", context: String? = nil) {
        self.init(code: Code(errno: errno), path: path, call: call, errno: errno, context: context)
    }

    /// The shape FileSystemKit always threw: an errno and what was being done.
    public static func system(_ errno: Int32, _ context: String, path: String = "", call: String = "") -> FileSystemError {
        FileSystemError(errno: errno, call: call, path: path, context: context)
    }

    /// The user or the caller stopped the work.
    public static let cancelled = FileSystemError(code: .cancelled, context: "cancelled")

    /// A copy that came out with another size than its source.
    public static func sizeMismatch(expected: Int64, found: Int64) -> FileSystemError {
        FileSystemError(code: .sizeMismatch, context: "the copy has \(found) bytes, the source \(expected)")
    }

    /// A source that changed while it was copied: a move keeps it, and the copy is not put in place.
    public static func sourceChanged(_ path: String) -> FileSystemError {
        FileSystemError(code: .sourceChanged, path: path, context: "\(TerminalText.escaped(lastComponent(path))) changed while it was copied; kept")
    }

    /// A copy read back (`--verify`) that differs from its unchanged source.
    public static let contentDiffers = FileSystemError(code: .contentDiffers,
                                                       context: "the copy read back differs from the original, which did not change (the destination did not keep what was written)")

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `volume` takes no calls: one is stuck in the kernel, or too many are.
    public static func notResponding(_ what: String) -> FileSystemError {
        FileSystemError(code: .notResponding, path: what, context: "\(what) is not responding")
    }

    /// The text for the user: what was being done, the system's reason, and what to do about it.
    public var message: String {
        let reason = errno == 0 ? nil : String(cString: strerror(errno))
        let advice = Self.advice(for: code).map { " (\($0))" } ?? ""
        if let context {
            return (reason.map { "\(context): \($0)" } ?? context) + advice
        }
        let summary = reason?.lowercased() ?? code.rawValue
        return (path.isEmpty ? summary : "\(summary): \(path)") + advice
    }

    /// The message.
    public var description: String { message }

    /// Whether the error means the volume itself is gone, not just this file.
    public var meansVolumeGone: Bool { code == .volumeGone }

    /// What the user can do, for the failures where there is something.
    static func advice(for code: Code) -> String? {
        switch code {
        case .permissionDenied: return "ask the owner, or use sudo"
        case .noSpace: return "free some space on the volume"
        case .readOnly: return "the volume is mounted read-only"
        case .volumeGone: return "is the volume still connected?"
        default: return nil
        }
    }
}
