import SystemKit

extension VolumeIO {
    /// The engine's threads for blocking calls: every stat and cache look-up of thumbnail
    /// requests and batches, at most 32 outstanding (stuck ones included).
    static let engine = VolumeIO(maximumOutstanding: 32)

    /// Runs `body` on one of the engine's threads (`call(volume:_:)`), with the engine's errors:
    /// `.cancelled` when the task was cancelled, `.unreadable` when no thread could be had.
    /// `deadline` (seconds): past it the call fails as `.unreadable`, the volume not responding.
    static func engineCall<T: Sendable>(deadline: Double? = nil, _ body: @escaping @Sendable (Token) -> T) async throws(ThumbnailError) -> T {
        do {
            return try await engine.call(deadline: deadline, body)
        } catch {
            throw error.code == .cancelled ? ThumbnailError(.cancelled, "cancelled") : ThumbnailError(.unreadable, error.message)
        }
    }
}
