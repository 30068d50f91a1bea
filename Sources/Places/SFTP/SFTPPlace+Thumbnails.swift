import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

extension SFTPPlace {
    /// Thumbnails made here, reading as little of each file as can be: a copy of the whole file
    /// kept from an earlier visit (`fileCache`) is thumbnailed by the local engine without a byte
    /// over the link; else a JPEG's embedded preview from a ranged read of its first bytes (the
    /// thumbnail when it fills the box, else a low-quality one); the whole file is read, kept and
    /// thumbnailed only when the full picture is wanted and nothing smaller stands for it.
    @discardableResult
    public func fetchThumbnails(for items: [PlaceItem], options: ThumbnailOptions,
                                perItem: @escaping @Sendable (PlaceItem, Result<Representation, ThumbnailError>) -> Void,
                                completion: @escaping @Sendable (ThumbnailError?) -> Void) -> PlaceProgress {
        FetchLanes.run(count: items.count, lanes: options.concurrency, priority: options.priority, item: { [self] index, progress in
            let item = items[index]
            defer { progress.completeOne() }
            if progress.isCancelled { return perItem(item, .failure(ThumbnailError(.cancelled, "cancelled"))) }
            await thumbnail(of: item, options: options) { perItem(item, $0) }
        }, completion: completion)
    }

    private func thumbnail(of item: PlaceItem, options: ThumbnailOptions, deliver: @Sendable (Result<Representation, ThumbnailError>) -> Void) async {
        guard item.isRegularFile, item.size > 0 else { return deliver(.failure(ThumbnailError(.noPreview, "not a file with content"))) }
        if options.checksVersion {
            do throws(FileSystemError) {
                let now = try await self.item(at: item.path)
                if now.version != item.version { return deliver(.failure(ThumbnailError(.unreadable, "the file changed since it was listed"))) }
            } catch {
                return deliver(.failure(ThumbnailError(error.code == .cancelled ? .cancelled : .unreadable, error.message)))
            }
        }
        let full = options.types.contains(.thumbnail)
        if full, let generator = thumbnails, let copy = fileCache?.copy(of: item.path, at: address, size: item.size, modified: item.modified) {
            if RemoteTrace.isOn { RemoteTrace.note("sftp", "kept here \(item.path)") }
            return await local(copy, generator: generator, options: options, deliver: deliver)
        }
        let side = max(1, Int((options.size * options.scale).rounded()))
        let box = PixelSize(width: side, height: side)
        var low: Representation?
        var first: [UInt8] = []
        // Only a JPEG (or a name that says nothing) can hold a preview this reads.
        let named = ContentTypeTable.type(forFileName: item.path)
        if named == nil || named?.identifier == "image/jpeg", !options.types.isDisjoint(with: [.lowQuality, .thumbnail]),
           let head = try? await read(item.path, offset: 0, length: min(item.size, SFTPEmbeddedPreview.headBytes)) {
            first = head
            if let (image, source, fills) = await SFTPEmbeddedPreview.image(head: head, fileSize: item.size, box: box, read: { range in
                try? await self.read(item.path, offset: range.lowerBound, length: range.count)
            }) {
                if RemoteTrace.isOn { RemoteTrace.note("sftp", "embedded \(source) fills \(fills) box \(side) \(item.path)") }
                let type: RepresentationType = fills && full ? .thumbnail : .lowQuality
                let picture = Representation(type: type, image: image, source: source, contentType: ContentType("image/jpeg"))
                if fills && full { return deliver(.success(picture)) }
                if options.types.contains(.lowQuality) { low = picture }
            }
        }
        let canFetch = full && thumbnails != nil && fileCache.map { item.size <= $0.largestFile } == true
        if let low, options.progressive || !canFetch { deliver(.success(low)) }
        if canFetch, let generator = thumbnails, let copy = await sharedDownload(item, first: first) {
            return await local(copy, generator: generator, options: options, shown: options.progressive ? low?.type : nil, deliver: deliver)
        }
        if low == nil { deliver(.failure(ThumbnailError(.noPreview, "no embedded preview, and the whole file was not read over SFTP"))) }
        else if !options.progressive && canFetch { deliver(.success(low!)) }
    }

    /// The pictures the local engine makes of a copy kept here; with `shown`, none below the
    /// one already delivered (the copy's icon after the embedded preview would be a step down).
    private func local(_ copy: String, generator: ThumbnailGenerator, options: ThumbnailOptions, shown: RepresentationType? = nil,
                       deliver: @Sendable (Result<Representation, ThumbnailError>) -> Void) async {
        var request = ThumbnailRequest(path: copy, size: options.size, scale: options.scale, types: options.types)
        request.maximumIconSide = options.maximumIconSide
        request.cheapPictureFirst = options.progressive
        do {
            if options.progressive {
                for try await representation in generator.representations(for: request) where shown.map({ representation.type > $0 }) ?? true {
                    deliver(.success(representation))
                }
            } else {
                deliver(.success(try await generator.bestRepresentation(for: request)))
            }
        } catch let error as ThumbnailError {
            deliver(.failure(error))
        } catch {
            deliver(.failure(ThumbnailError(.cancelled, "cancelled")))
        }
    }

    /// The copy of `item` from the read under way for it, or from a new one (`downloads`); the
    /// read stops when the last of its askers is cancelled.
    func sharedDownload(_ item: PlaceItem, first: [UInt8]) async -> String? {
        guard let fileCache else { return nil }
        let key = fileCache.file(for: item.path, at: address, size: item.size, modified: item.modified)
        let task = downloads.withLock { running -> Task<String?, Never> in
            if let known = running[key] {
                running[key]?.askers += 1
                return known.task
            }
            let task = Task.detached(priority: .utility) { [self] () -> String? in
                defer { downloads.withLock { $0[key] = nil } }
                guard await downloadTurns.take() else { return nil }
                defer { downloadTurns.give() }
                // A copy made meanwhile by a read that had the turn before is not read again.
                if let made = fileCache.copy(of: item.path, at: address, size: item.size, modified: item.modified) { return made }
                return await download(item, first: first)
            }
            running[key] = (task, 1)
            return task
        }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            let last = downloads.withLock { running -> Bool in
                guard let known = running[key] else { return false }
                running[key]?.askers = known.askers - 1
                return known.askers <= 1
            }
            if last { task.cancel() }
        }
    }

    /// Reads the whole of `item` into the file cache, 4 MiB at a time with many reads in
    /// flight; the copy's path, nil when it could not be read whole or kept.
    func download(_ item: PlaceItem, first: [UInt8] = []) async -> String? {
        guard let fileCache else { return nil }
        return await fileCache.keep(item.path, at: address, size: item.size, modified: item.modified) { fd in
            do throws(FileSystemError) {
                let handle = try await open(item.path, flags: SFTPRequest.readFlag)
                defer { closeHandle(handle) }
                // The first bytes, read already for the embedded preview, are not read again.
                guard FileDescriptorWriter.writeAll(first, to: fd) else { return false }
                var offset = first.count
                while offset < item.size {
                    let bytes = try await read(handle, path: item.path, offset: offset, length: min(4 << 20, item.size - offset))
                    guard !bytes.isEmpty, FileDescriptorWriter.writeAll(bytes, to: fd) else { return false }
                    offset += bytes.count
                }
                if RemoteTrace.isOn { RemoteTrace.note("sftp", "read whole \(offset) bytes \(item.path)") }
                // Kept as the version listed only if it still is (not one changed while read).
                guard offset == item.size, case .attributes(_, let now) = try await call(.stat(path: item.path.fileSystemBytes), path: item.path) else { return false }
                return now.size.map { Int(clamping: $0) } == item.size && now.modified.map { Int($0) } == item.modified
            } catch {
                return false
            }
        }
    }
}
