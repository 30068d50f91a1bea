import SystemKit
import ThumbnailKit

/// The photos of a queued list answered from their own previews, in this process, before anything
/// of the list waits for a lane: tumbler answers a folder of camera photos so, and a lane held by a
/// video must not hold a photo whose thumbnail is already inside it.
extension DBusThumbnailer {
    /// A refusal before any work: tumbler's code and message.
    struct Refusal: Error {
        let code: ErrorCode
        let message: String
    }

    /// The request for `uri` at `pixels`, or why it is refused (not a local file, not written as
    /// the cache keys it, a thumbnail itself).
    static func request(for uri: String, pixels: Int, cacheRoot: String) -> Result<ThumbnailRequest, Refusal> {
        guard let path = FileURI.path(from: uri) else { return .failure(Refusal(code: .unsupported, message: "Only local files are supported")) }
        // The cache is keyed by the URI as GLib writes it; a thumbnail stored under that key and
        // announced under another spelling (file://localhost/, %e9) would never be found.
        guard FileURI.from(absolutePath: path) == uri else {
            return .failure(Refusal(code: .unsupported, message: "Not written as the thumbnail cache keys it (\(FileURI.from(absolutePath: path)))"))
        }
        guard !path.hasPrefix(cacheRoot + "/") else { return .failure(Refusal(code: .isThumbnail, message: "The file \"\(path)\" is a thumbnail itself")) }
        var request = ThumbnailRequest(path: path, size: Double(pixels), types: [.thumbnail])
        request.wantsFacts = false
        request.embeddedSuffices = true
        return .success(request)
    }

    /// Answers the `photos` (`mayHoldItsThumbnail`) whose own preview fills the flavor, `lanes` at
    /// a time, each with its Ready as soon as it is stored; returns those answered (the others are
    /// left to the lanes).
    func answerEmbedded(_ photos: [String], handle: UInt32, pixels: Int, signals: Signals) async -> Set<String> {
        var answered = Set<String>()
        await withTaskGroup(of: String?.self) { group in
            var next = photos.makeIterator()
            func add() {
                guard !isDequeued(handle), let uri = next.next() else { return }
                group.addTask { await self.answerEmbedded(uri, pixels: pixels, signals: signals) ? uri : nil }
            }
            for _ in 0..<lanes { add() }
            for await uri in group {
                if let uri { answered.insert(uri) }
                add()
            }
        }
        return answered
    }

    /// Whether the file is named as a JPEG: a photo whose own preview may be its thumbnail.
    static func mayHoldItsThumbnail(_ uri: String) -> Bool {
        FileURI.path(from: uri).flatMap { ContentTypeTable.type(forFileName: $0) }?.identifier == "image/jpeg"
    }

    private func answerEmbedded(_ uri: String, pixels: Int, signals: Signals) async -> Bool {
        guard case .success(let request) = Self.request(for: uri, pixels: pixels, cacheRoot: cache.root),
              let made = await generator.embeddedThumbnail(for: request), made.notStored == nil else { return false }
        signals.ready([uri])
        return true
    }
}
