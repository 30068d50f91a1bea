import Synchronization
import SystemKit
import ThumbnailKit

extension RemotePlace {
    /// Thumbnails made and cached on the remote (its workers, its cache), each sent at the size
    /// asked (JPEG for a photo, PNG for an icon or a picture with transparency): what crosses the link is the picture, never the file. Items are asked for
    /// `options.concurrency` at a time over the one connection; each has `thumbnailDeadline`
    /// seconds; an item changed since it was listed fails there (its version travels with it).
    @discardableResult
    public func fetchThumbnails(for items: [PlaceItem], options: ThumbnailOptions,
                                perItem: @escaping @Sendable (PlaceItem, Result<Representation, ThumbnailError>) -> Void,
                                completion: @escaping @Sendable (ThumbnailError?) -> Void) -> PlaceProgress {
        FetchLanes.run(count: items.count, lanes: options.concurrency, priority: .utility, item: { [self] index, progress in
            let item = items[index]
            let result = progress.isCancelled ? .failure(ThumbnailError(.cancelled, "cancelled"))
                : await thumbnail(of: item, options: options)
            progress.completeOne()
            perItem(item, result)
        }, completion: completion)
    }

    /// One item's picture from the remote, decoded here from its PNG.
    func thumbnail(of item: PlaceItem, options: ThumbnailOptions) async -> Result<Representation, ThumbnailError> {
        let request = RemoteRequest.Thumbnail(path: item.path, modified: item.modified, size: item.size, box: options.size,
                                              scale: options.scale, types: options.types.sorted(), checksVersion: options.checksVersion)
        let answer: (RemoteAnswer, [UInt8])
        do throws(FileSystemError) {
            answer = try await call(.thumbnail(request), deadline: thumbnailDeadline, keepsFailure: true)
        } catch {
            return .failure(ThumbnailError(error.code == .cancelled ? .cancelled : .unreadable, error.message))
        }
        if case .failure(let failure) = answer.0 { return .failure(failure.thumbnailError) }
        guard case .thumbnail(let picture) = answer.0, let image = RemotePreviewPicture.unpackThumbnail(answer.1, jpeg: picture.jpeg == true) else {
            return .failure(ThumbnailError(.corrupt, "\(TerminalText.escaped(name)) sent a picture this qlbrowse cannot read"))
        }
        var representation = Representation(type: picture.type, image: image, source: picture.source, contentType: picture.contentType)
        representation.facts = picture.facts
        if picture.jpeg != true { representation.encodedPNG = answer.1 }
        return .success(representation)
    }
}
