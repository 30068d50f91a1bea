import Synchronization
import SystemKit
import ThumbnailKit

extension RemotePlace {
    /// Thumbnails made and cached on the remote (its workers, its cache), each sent at the size
    /// asked, an opaque picture as JPEG and an icon or one with transparency as PNG
    /// (`RemotePreviewPicture.packThumbnail`): what crosses
    /// the link is the picture, never the file. A picture this machine kept from an earlier visit
    /// (`pictureCache`, keyed by the file's version) is not asked again. Items are asked for
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

    /// One item's picture: kept here from an earlier visit, else from the remote (then kept).
    func thumbnail(of item: PlaceItem, options: ThumbnailOptions) async -> Result<Representation, ThumbnailError> {
        let request = RemoteRequest.Thumbnail(path: item.path, modified: item.modified, size: item.size, box: options.size,
                                              scale: options.scale, types: options.types.sorted(), checksVersion: options.checksVersion)
        if let (picture, bytes) = pictureCache?.picture(for: request, at: address), let kept = representation(picture, bytes) {
            if RemoteTrace.isOn { RemoteTrace.note("browser", "kept here \(item.path)") }
            return .success(kept)
        }
        let answer: (RemoteAnswer, [UInt8])
        do throws(FileSystemError) {
            answer = try await call(.thumbnail(request), deadline: thumbnailDeadline, keepsFailure: true)
        } catch {
            return .failure(ThumbnailError(error.code == .cancelled ? .cancelled : .unreadable, error.message))
        }
        if case .failure(let failure) = answer.0 { return .failure(failure.thumbnailError) }
        guard case .thumbnail(let picture) = answer.0, let made = representation(picture, answer.1) else {
            return .failure(ThumbnailError(.corrupt, "\(TerminalText.escaped(name)) sent a picture this qlbrowse cannot read"))
        }
        pictureCache?.keep(picture, bytes: answer.1, for: request, at: address)
        return .success(made)
    }

    /// The representation a picture's answer describes, decoded from its bytes; nil when they
    /// are not a picture.
    private func representation(_ picture: RemoteAnswer.Picture, _ bytes: [UInt8]) -> Representation? {
        guard let image = RemotePreviewPicture.unpackThumbnail(bytes, jpeg: picture.jpeg == true) else { return nil }
        var representation = Representation(type: picture.type, image: image, source: picture.source, contentType: picture.contentType)
        representation.facts = picture.facts
        if picture.jpeg != true { representation.encodedPNG = bytes }
        return representation
    }
}
