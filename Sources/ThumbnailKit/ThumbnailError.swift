import SystemKit
/// Why the engine could not make a picture of a file. `description` is the one-line reason shown
/// to the user; it names what went wrong in words, never an errno number alone.
public struct ThumbnailError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The broad reason, for callers that act on it (the cache records failures, the UI picks a message).
    public enum Code: String, Sendable, Codable {
        case unreadable, unsupported, corrupt, encrypted, noPreview, tooLarge, timedOut, crashed, cancelled, workerUnavailable, writeFailed

        /// Whether the failure comes from the file's content (worth remembering in the cache), not
        /// from the moment: unreadable (I/O error, a vanished share), cancelled, no worker, no space.
        public var isAboutTheContent: Bool {
            switch self {
            case .unsupported, .corrupt, .encrypted, .noPreview, .tooLarge, .timedOut, .crashed: return true
            case .unreadable, .cancelled, .workerUnavailable, .writeFailed: return false
            }
        }
    }

    public let code: Code
    public let reason: String
    /// The content type the engine had determined when it failed, if any.
    public let contentType: ContentType?

    public init(_ code: Code, _ reason: String, contentType: ContentType? = nil) {
        self.code = code
        self.reason = reason
        self.contentType = contentType
    }

    public var description: String { reason }

    /// How the reason of a failure remembered in the cache ends. Each front end says how it is
    /// retried (`--force` for `thumbnail`; `preview` has no such flag): see `retryHint(_:)`.
    public static let rememberedNote = " (remembered)"

    /// The error with a remembered failure's note saying how to retry ("--force retries"); other errors as they are.
    public func retryHint(_ hint: String) -> ThumbnailError {
        guard reason.hasSuffix(Self.rememberedNote) else { return self }
        return ThumbnailError(code, String(reason.dropLast(Self.rememberedNote.count)) + " (remembered; \(hint))", contentType: contentType)
    }
}
