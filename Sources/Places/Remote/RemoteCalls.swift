import FileSystemKit
import SystemKit
import ThumbnailKit

/// The remote side's answer to each request that is one call of its `LocalPlace` (all but
/// listings and thumbnails, which report as they go: `RemoteServer`).
struct RemoteCalls: Sendable {
    let place: LocalPlace
    /// This side's thumbnails, which follow a renamed or trashed item.
    var cache: ThumbnailCache? = nil

    /// The answer to `request` and its payload; throws the place's failure.
    func answer(_ request: RemoteRequest, payload: [UInt8]) async throws(FileSystemError) -> (RemoteAnswer, [UInt8]) {
        switch request {
        case .resolve(let path):
            // As scp: a relative path is in the home folder, where ssh starts this process.
            let absolute = PathNormalizer.absolute(path.isEmpty ? "." : path)
            return (.resolved(path: absolute, item: RemoteItem(try await place.item(at: absolute))), [])
        case .probe(let path):
            if let problem = await place.probe(path) { throw problem }
            return (.done, [])
        case .item(let path):
            return (.item(RemoteItem(try await place.item(at: path))), [])
        case .read(let read):
            return (.bytes, try await place.read(read.path, offset: read.offset, length: min(read.length, FrameCodec.maximumPayload)))
        case .write(let path):
            try await place.write(payload, to: path)
            return (.done, [])
        case .rename(let rename):
            let stamp = try await place.rename(rename.from, to: rename.to)
            cache?.moveThumbnails(from: rename.from, to: rename.to)
            return (.stamp(stamp), [])
        case .stamp(let path):
            return (.stamp(try await place.stamp(path)), [])
        case .make(let make):
            return (.stamp(try await place.make(make.path, folder: make.folder)), [])
        case .trash(let path):
            let trashed = try await place.trash(path)
            cache?.removeThumbnails(for: path)
            return (.trashed(trashed), [])
        case .restore(let item):
            return (.restored(path: try await place.restore(item)), [])
        case .capabilities(let asked):
            return (.capabilities(RemoteCapabilities(try await place.capabilities(of: asked.folder, trial: asked.trial))), [])
        case .text(let asked):
            let read = try await place.textLines(asked.path, from: asked.first, count: asked.count)
            return (.text(first: read.first, count: read.lines.count, total: read.total), read.lines.flatMap { $0 + [0x0A] })
        case .append(let asked):
            try await place.writeChunk(payload, to: asked.path, at: asked.offset, last: asked.last, mode: asked.mode)
            return (.done, [])
        case .chmod(let asked):
            try await place.setMode(asked.path, to: asked.mode)
            return (.done, [])
        case .hello, .cancel, .list, .thumbnail, .preview, .perform, .choose, .pause, .batch, .watch, .find, .findQuery, .findInside:
            throw FileSystemError(code: .invalid, context: "not a single call")
        }
    }
}
