import SystemKit
import ThumbnailKit

/// What a job tells its caller: tumbler's signals, and its codes for what went wrong.
extension DBusThumbnailer {
    /// One job's signals, to the caller that queued it.
    struct Signals: Sendable {
        let bus: DBusService?
        let caller: String?
        let handle: UInt32

        func started() { bus?.emit("Started", to: caller, handle) }
        func finished() { bus?.emit("Finished", to: caller, handle) }
        func ready(_ uris: [String]) { bus?.emit("Ready", to: caller, handle, uris) }
        func failed(_ uris: [String], _ code: ErrorCode, _ message: String) {
            bus?.emit("Error", to: caller, handle, uris, code: code.rawValue, message: message)
        }
    }

    /// tumbler's code for an engine failure.
    static func code(for error: ThumbnailError) -> ErrorCode {
        switch error.code {
        case .unsupported: return .unsupported
        case .corrupt, .encrypted: return .invalidFormat
        case .noPreview: return .noContent
        case .writeFailed: return .saveFailed
        case .unreadable, .tooLarge, .timedOut, .crashed, .cancelled, .workerUnavailable: return .other
        }
    }
}
