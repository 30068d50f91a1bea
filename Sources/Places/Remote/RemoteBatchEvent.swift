import SystemKit
import ThumbnailKit

/// `ThumbnailBatch.Event` as it travels from a batch run on the remote (`T` on a remote folder):
/// what a made thumbnail looked like, never its pixels (they stay in the remote's cache).
package enum RemoteBatchEvent: Codable, Sendable, Equatable {
    case found(total: Int)
    case unlisted(folder: String, reason: String)
    case generated(path: String, source: String, width: Int, height: Int)
    case cached(path: String)
    case failed(path: String, code: ThumbnailError.Code, reason: String)
    case skipped(path: String, reason: String)

    /// The events to send for `event`.
    package static func of(_ event: ThumbnailBatch.Event) -> [RemoteBatchEvent] {
        switch event {
        case .found(let total): [.found(total: total)]
        case .unlisted(let folders): folders.map { .unlisted(folder: $0.folder, reason: $0.reason) }
        case .file(let path, .generated(let picture)):
            [.generated(path: path, source: picture.source, width: picture.image.width, height: picture.image.height)]
        case .file(let path, .alreadyCached): [.cached(path: path)]
        case .file(let path, .failed(let error)): [.failed(path: path, code: error.code, reason: error.reason)]
        case .file(let path, .skipped(let reason)): [.skipped(path: path, reason: reason)]
        }
    }

    /// The batch's events for `events` as they came (the unlisted folders of one walk together).
    /// A made thumbnail is told with a one-pixel picture: its pixels stay in the remote's cache,
    /// and a batch's callers only count it (its source says where it was made).
    package static func events(_ events: [RemoteBatchEvent], host: String) -> [ThumbnailBatch.Event] {
        var result: [ThumbnailBatch.Event] = []
        var unlisted: [(folder: String, reason: String)] = []
        for event in events {
            if case .unlisted(let folder, let reason) = event {
                unlisted.append((folder, reason))
                continue
            }
            if !unlisted.isEmpty {
                result.append(.unlisted(unlisted))
                unlisted = []
            }
            switch event {
            case .found(let total): result.append(.found(total: total))
            case .unlisted: break
            case .generated(let path, let source, _, _):
                let picture = Representation(type: .thumbnail, image: PixelImage(width: 1, height: 1, filledWith: .clear),
                                             source: "\(source) on \(host)", contentType: ContentTypeTable.type(forFileName: path) ?? ContentType("application/octet-stream"))
                result.append(.file(path: path, outcome: .generated(picture)))
            case .cached(let path): result.append(.file(path: path, outcome: .alreadyCached))
            case .failed(let path, let code, let reason): result.append(.file(path: path, outcome: .failed(ThumbnailError(code, reason))))
            case .skipped(let path, let reason): result.append(.file(path: path, outcome: .skipped(reason)))
            }
        }
        if !unlisted.isEmpty { result.append(.unlisted(unlisted)) }
        return result
    }
}
