import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Makes thumbnails: the Linux counterpart of Apple's `QLThumbnailGenerator`.
///
/// Representations arrive lowest quality first (icon, low quality, thumbnail); a lower one may be
/// skipped when a higher one is ready first, and every request that does not fail gets at least one.
/// The icon is drawn here at once; everything that reads the file's content runs in worker processes.
public final class ThumbnailGenerator: Sendable {
    private let pool: any WorkerBackend
    private let cache: (any ThumbnailCaching)?
    private let running = Mutex<[UInt64: Task<Void, Never>]>([:])
    private let lookupDeadline: Double

    public convenience init(pool: WorkerPool, cache: (any ThumbnailCaching)? = nil) {
        self.init(workers: pool, cache: cache)
    }

    /// A generator whose decoding goes to `workers`: this process's pool or the resident service.
    /// `lookupDeadline`: seconds a file's stat and cache look-up may take before the request fails
    /// with the volume not responding (a share that hangs holds that thread, not the request).
    package init(workers: any WorkerBackend, cache: (any ThumbnailCaching)? = nil,
                 lookupDeadline: Double = WorkerLimits.standard.deadlineSeconds) {
        self.pool = workers
        self.cache = cache
        self.lookupDeadline = lookupDeadline
    }

    /// The representations of a file, lowest quality first. Throws `ThumbnailError` when the file
    /// cannot be read or decoded (after the icon, when the icon was asked for).
    public func representations(for request: ThumbnailRequest) -> AsyncThrowingStream<Representation, Error> {
        representations(for: request, workers: true)
    }

    /// `workers` false: only what this process makes (the icon, the cache's picture, a JPEG's own preview).
    private func representations(for request: ThumbnailRequest, workers: Bool) -> AsyncThrowingStream<Representation, Error> {
        let (stream, continuation) = AsyncThrowingStream<Representation, Error>.makeStream()
        let task = Task { [self] in
            do {
                try await produce(request, workers: workers) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled ? CancellationError() : error)
            }
            _ = running.withLock { $0.removeValue(forKey: request.id) }
        }
        running.withLock { $0[request.id] = task }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The best representation the request allows.
    public func bestRepresentation(for request: ThumbnailRequest) async throws -> Representation {
        try await bestRepresentation(for: request, workers: true)
    }

    /// The thumbnail a JPEG gets from its own preview without any worker (`embeddedSuffices`),
    /// stored in the cache like any other, or the cache's; nil when neither fills the box, so that
    /// a caller answers the photos of a first screen before it queues anything for the workers.
    package func embeddedThumbnail(for request: ThumbnailRequest) async -> Representation? {
        var request = request
        request.embeddedSuffices = true
        return try? await bestRepresentation(for: request, workers: false)
    }

    private func bestRepresentation(for request: ThumbnailRequest, workers: Bool) async throws -> Representation {
        var best: Representation?
        for try await representation in representations(for: request, workers: workers) { best = representation }
        guard let best else { throw ThumbnailError(.noPreview, "no picture could be made") }
        return best
    }

    /// Makes the best representation and writes it to `path` atomically (temporary file, then rename).
    @discardableResult
    public func saveBestRepresentation(for request: ThumbnailRequest, to path: String, format: ImageFormat) async throws -> Representation {
        let best = try await bestRepresentation(for: request)
        try AtomicFileWriter.write(format.encode(best.image), to: path)
        return best
    }

    /// Stops work on a request; its stream ends with `CancellationError`. Task cancellation works too.
    public func cancel(_ request: ThumbnailRequest) {
        running.withLock { $0[request.id] }?.cancel()
    }

    /// What is known about a file before any decoding: its status and what the cache holds.
    private struct Lookup: Sendable {
        var status: stat
        var failure: ThumbnailError?
        var cached: Representation?
        /// The JPEG's own preview, when the request takes one as its thumbnail and it fills the box.
        var embedded: (image: PixelImage, source: String)?
    }

    /// The thumbnail a request gets from the cache alone, found in the caller's thread without
    /// any task, thread or worker: a stored thumbnail for a request that asks for nothing else.
    /// Nil when anything more is needed (no stored one, a known failure, not a regular file, other
    /// types asked for): the representations stream then says what. A short call answers from here
    /// before it starts anything (issue #27); it calls `stat` and reads the cache where it stands,
    /// so it is for files on volumes that cannot hang (local disks).
    package static func cachedThumbnail(for request: ThumbnailRequest, in cache: any ThumbnailCaching) -> Representation? {
        let box = request.pixelBox
        guard types(of: request, box: box) == [.thumbnail],
              // `lookUp` reads the cache only for a non-empty regular file without a known failure.
              case .success(let lookup) = lookUp(request, wanted: [.thumbnail], box: box, cache: cache),
              let cached = lookup.cached, cached.type == .thumbnail else { return nil }
        return cached
    }

    /// The types a request gets: only its icon when the box is under its minimum.
    private static func types(of request: ThumbnailRequest, box: PixelSize) -> Set<RepresentationType> {
        if let minimum = request.minimumDimension, Double(max(box.width, box.height)) < minimum {
            return request.types.intersection([.icon])
        }
        return request.types
    }

    /// The file's status and what the cache (or, for a desktop's first screen, the JPEG's own
    /// preview) holds for the `wanted` types; calls `stat` and reads files where it runs.
    private static func lookUp(_ request: ThumbnailRequest, wanted: Set<RepresentationType>, box: PixelSize,
                               cache: (any ThumbnailCaching)?) -> Result<Lookup, ThumbnailError> {
        var status = stat()
        guard stat(request.path, &status) == 0 else {
            return .failure(ThumbnailError(.unreadable, String(cString: strerror(errno))))
        }
        var lookup = Lookup(status: status)
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        if let cache, !wanted.isEmpty, isRegular, status.st_size > 0 {
            lookup.failure = cache.knownFailure(for: request)
            if lookup.failure == nil { lookup.cached = cache.cachedRepresentation(for: request, box: box) }
        }
        // tumbler's way for a desktop's first screen of photos: the preview the JPEG carries,
        // read and decoded here (a few KB, no worker to wait for).
        if request.embeddedSuffices, wanted.contains(.thumbnail), isRegular, lookup.cached == nil, lookup.failure == nil,
           (request.contentType ?? ContentTypeTable.type(forFileName: request.path))?.identifier == "image/jpeg" {
            lookup.embedded = EmbeddedThumbnail.image(path: request.path, box: cache?.generationBox(for: box) ?? box)
        }
        return .success(lookup)
    }

    private func produce(_ request: ThumbnailRequest, workers: Bool, yield: (Representation) -> Void) async throws {
        let box = request.pixelBox
        let types = Self.types(of: request, box: box)
        let wanted = types.subtracting([.icon])
        // The file's status and the cache are read on a thread of their own: a stat on a share
        // that stopped answering must not hold one of the cooperative threads.
        let lookup = try await VolumeIO.engineCall(deadline: lookupDeadline) { [cache] _ in Self.lookUp(request, wanted: wanted, box: box, cache: cache) }.get()
        let status = lookup.status
        let isFolder = (status.st_mode & S_IFMT) == S_IFDIR
        var contentType = request.contentType ?? (isFolder ? .folder : ContentTypeTable.type(forFileName: request.path) ?? .unknown)
        var delivered: RepresentationType?

        func deliver(_ representation: Representation) {
            if let delivered, representation.type <= delivered { return }
            delivered = representation.type
            yield(representation)
        }

        if types.contains(.icon) {
            let side = min(max(box.width, box.height), request.maximumIconSide ?? .max)
            deliver(Representation(type: .icon, image: IconRenderer.icon(for: contentType.kind, side: side), source: "icon", contentType: contentType))
        }
        guard !wanted.isEmpty else { return }
        guard !isFolder else {
            if delivered == nil { throw ThumbnailError(.unsupported, "a folder has only an icon") }
            return
        }
        // A FIFO, a device or a socket (or a link to one) has no content to decode: refused now
        // (after its icon, when asked for), never handed to a worker that would wait on it until
        // the deadline.
        let kind = FileKind(mode: status.st_mode)
        guard kind == .regular else { throw ThumbnailError(.unsupported, kind.refusal, contentType: contentType) }
        if status.st_size == 0 && (status.st_mode & S_IFMT) == S_IFREG {
            throw ThumbnailError(.noPreview, "the file is empty", contentType: contentType)
        }
        if let failure = lookup.failure {
            throw ThumbnailError(failure.code, failure.reason, contentType: contentType)
        }
        // A cached thumbnail shown as low quality while it is made again for its facts: the
        // answer after all if making it again fails (the file is not blamed for that).
        var fallback: Representation?
        if let cached = lookup.cached, wanted.contains(cached.type) || cached.type == .lowQuality {
            contentType = cached.contentType
            // A thumbnail stored without the facts this request wants is shown at once as the low
            // quality, and made again with them (stored with them for the next visit).
            let redo = cached.type == .thumbnail && cached.lacksFacts && request.wantsFacts && wanted.contains(.lowQuality)
            if cached.type == .thumbnail && !redo {
                deliver(cached)
                return
            }
            if redo {
                fallback = cached
                let early = Representation(type: .lowQuality, image: cached.image, source: cached.source, contentType: cached.contentType)
                deliver(early)
            } else if wanted.contains(.lowQuality) {
                deliver(cached)
            }
        }
        try Task.checkCancellation()
        // With a cache, decode at its size class so the result can be kept, then fit the box.
        let decodeBox = wanted.contains(.thumbnail) ? cache?.generationBox(for: box) ?? box : box
        func take(_ event: WorkerEvent) {
            switch event {
            case .contentType(let sniffed):
                contentType = sniffed
            case .image(let type, let image, let source, let facts):
                var representation = Representation(type: type, image: image, source: source, contentType: contentType)
                representation.facts = facts
                let storesAfter = type == .thumbnail && request.deliversBeforeCaching
                var notStored: ThumbnailError?
                if type == .thumbnail && !storesAfter, let cache {
                    do { representation.encodedPNG = try cache.store(representation, for: request, box: box, stamp: FileStamp(status)) } catch { notStored = error }
                }
                let size = ThumbnailGeometry.fit(image.size, in: box)
                var fitted = representation
                if size != image.size {
                    fitted = Representation(type: type, image: image.resized(to: size), source: source, contentType: contentType)
                    fitted.facts = facts
                }
                fitted.notStored = notStored
                deliver(fitted)
                // Stored after the picture went out (a preview pane): nobody waits to hear it failed.
                if storesAfter { _ = try? cache?.store(representation, for: request, box: box, stamp: FileStamp(status)) }
            case .preview:
                break  // only preview requests get one
            }
        }
        if let (image, source) = lookup.embedded {
            take(.image(.thumbnail, image, source: source, facts: []))
            return
        }
        guard workers else { return }
        var fullTypes = wanted
        if request.cheapPictureFirst, wanted.isSuperset(of: [.lowQuality, .thumbnail]), delivered != .lowQuality {
            // The cheap picture as a request of its own, which pools serve before any full decode
            // waiting; a file with nothing embedded costs one short round trip, and the full pass
            // below says what went wrong with a file that cannot be read.
            fullTypes.remove(.lowQuality)
            do {
                for try await event in pool.run(path: PathNormalizer.absolute(request.path), box: box, types: [.lowQuality],
                                                contentType: request.contentType, wantsFacts: false, embeddedSuffices: false) { take(event) }
            } catch is ThumbnailError {}
            try Task.checkCancellation()
        }
        do {
            for try await event in pool.run(path: PathNormalizer.absolute(request.path), box: decodeBox, types: fullTypes, contentType: request.contentType,
                                                   wantsFacts: request.wantsFacts, embeddedSuffices: request.embeddedSuffices) {
                take(event)
            }
        } catch is ThumbnailError where fallback != nil && !Task.isCancelled {
            deliver(fallback!)
            return
        } catch let error as ThumbnailError {
            // Only what the file's content caused is remembered: an I/O error, a timeout or a lost
            // worker says nothing about the file (a share may be back tomorrow) and is retried.
            if error.code.isAboutTheContent && !Task.isCancelled { cache?.recordFailure(error, for: request) }
            throw ThumbnailError(error.code, error.reason, contentType: error.contentType ?? contentType)
        }
        try Task.checkCancellation()
        if delivered == nil || delivered == .icon {
            let what = wanted.contains(.thumbnail) ? "no thumbnail could be made" : "no low-quality preview (nothing embedded)"
            throw ThumbnailError(.noPreview, what, contentType: contentType)
        }
    }
}
