import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The freedesktop thumbnail cache (Thumbnail Managing Standard 0.9), shared with GNOME Files,
/// Thunar, Dolphin and every other file manager that follows it, with a memory LRU in front.
///
/// `$XDG_CACHE_HOME/thumbnails/{normal,large,x-large,xx-large}/md5(uri).png`, keyed by the file's
/// URI and valid while `Thumb::MTime` and `Thumb::Size` equal the file's. Failures are remembered
/// under `fail/qlbrowse-<version>/` so a broken file is not retried until it changes. Shared
/// repositories (`.sh_thumbnails/` beside the files, keyed by the relative URI `./name`) are read
/// after the personal cache, and written only when asked.
public final class ThumbnailCache: ThumbnailCaching {
    /// The standard's size folders.
    public enum Flavor: String, CaseIterable, Sendable {
        case normal, large, xLarge = "x-large", xxLarge = "xx-large"

        public var side: Int {
            switch self {
            case .normal: return 128
            case .large: return 256
            case .xLarge: return 512
            case .xxLarge: return 1024
            }
        }

        /// The smallest folder whose thumbnails are at least as large as the box; nil above 1024.
        public static func smallest(covering box: PixelSize) -> Flavor? {
            allCases.first { $0.side >= max(box.width, box.height) }
        }
    }

    public static let software = "qlbrowse \(EngineVersion.string)"

    /// `$XDG_CACHE_HOME/thumbnails`, else `~/.cache/thumbnails`.
    public static func defaultRoot() -> String {
        ProcessEnvironment.current.cacheHome + "/thumbnails"
    }

    public let root: String
    public let readsShared: Bool
    public let writesShared: Bool
    /// Ignore what is stored (but still store what is made): `--force`.
    public let ignoresStored: Bool
    private let memory: Mutex<MemoryLRU>

    public init(root: String = ThumbnailCache.defaultRoot(), readsShared: Bool = true, writesShared: Bool = false,
                ignoresStored: Bool = false, memoryBytes: Int = 48 << 20) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.readsShared = readsShared
        self.writesShared = writesShared
        self.ignoresStored = ignoresStored
        self.memory = Mutex(MemoryLRU(capacityBytes: memoryBytes))
    }

    // MARK: ThumbnailCaching

    public func generationBox(for box: PixelSize) -> PixelSize {
        guard let flavor = Flavor.smallest(covering: box) else { return box }
        return PixelSize(width: flavor.side, height: flavor.side)
    }

    public func cachedRepresentation(for request: ThumbnailRequest, box: PixelSize) -> Representation? {
        guard !ignoresStored, let stamp = FileStamp(path: request.path), !contains(request.path) else { return nil }
        let wanted = Flavor.smallest(covering: box)
        if let flavor = wanted, let image = validImage(for: request.path, flavor: flavor, stamp: stamp, decodes: !request.onlySavesPNG) {
            let contentType = image.contentType ?? ContentTypeTable.type(forFileName: request.path) ?? .unknown
            var representation: Representation
            if case .checked(let checked) = image.pixels, let png = image.png, ThumbnailGeometry.fit(checked.size, in: box) == checked.size {
                // Saved as it is: its pixels are decoded only if someone reads them.
                representation = Representation(type: .thumbnail, checked: checked, encoded: png, source: image.source, contentType: contentType)
            } else {
                let shown = fitted(image.image, in: box)
                representation = Representation(type: .thumbnail, image: shown, source: image.source, contentType: contentType)
                // Shown at its stored size, the file read is that picture's PNG already: `thumbnail -o`
                // writes it as it is instead of encoding the pixels again.
                if shown.size == image.image.size { representation.encodedPNG = image.png }
            }
            representation.facts = image.facts ?? []
            representation.lacksFacts = image.facts == nil
            return representation
        }
        // Another size will do as the low-quality picture while the right one is made; a request
        // without low quality would not use it, so its files are not even read.
        guard request.types.contains(.lowQuality) else { return nil }
        for flavor in Flavor.allCases.reversed() where flavor != wanted {
            if let image = validImage(for: request.path, flavor: flavor, stamp: stamp) {
                var representation = Representation(type: .lowQuality, image: fitted(image.image, in: box), source: "cache",
                                                    contentType: image.contentType ?? ContentTypeTable.type(forFileName: request.path) ?? .unknown)
                representation.facts = image.facts ?? []
                return representation
            }
        }
        return nil
    }

    public func knownFailure(for request: ThumbnailRequest) -> ThumbnailError? {
        guard !ignoresStored, let stamp = FileStamp(path: request.path), let png = readFile(failurePath(forFile: request.path)),
              let info = PNGDecoder.info(png), info.text["Thumb::MTime"] == String(stamp.modified) else { return nil }
        let reason = info.text["X-QLBrowse::Reason"] ?? "could not be thumbnailed before"
        let code = info.text["X-QLBrowse::Code"].flatMap(ThumbnailError.Code.init(rawValue:)) ?? .corrupt
        return ThumbnailError(code, reason + ThumbnailError.rememberedNote)
    }

    @discardableResult
    public func store(_ representation: Representation, for request: ThumbnailRequest, box: PixelSize, stamp: FileStamp? = nil) throws(ThumbnailError) -> [UInt8]? {
        guard let flavor = Flavor.smallest(covering: box), let stamp = stamp ?? FileStamp(path: request.path), !contains(request.path) else { return nil }
        let absolute = PathNormalizer.absolute(request.path)
        let uri = FileURI.from(absolutePath: absolute)
        var text = [("Thumb::URI", uri), ("Thumb::MTime", String(stamp.modified)), ("Thumb::Size", String(stamp.size)),
                    ("Thumb::Mimetype", representation.contentType.identifier), ("Software", Self.software)]
        // The decoder's facts (camera, date taken, duration) come back with the next visit's hit;
        // a picture made without them is stored without the key, so a request for them decodes again.
        let facts = request.wantsFacts ? representation.facts : nil
        if let facts { text.append((FileFact.cacheKey, FileFact.cacheText(facts))) }
        let target = path(forFile: absolute, flavor: flavor)
        let png = PNGEncoder.encode(representation.image, text: text, opaqueAsRGB: true)
        // What could not be written is said, not swallowed: a full disk or a read-only cache
        // counts as a failure for the caller, and the next run would otherwise make it again.
        var failure: ThumbnailError?
        if ensureFolder("\(root)/\(flavor.rawValue)") {
            do { try AtomicFileWriter.write(png, to: target, permissions: 0o600) } catch { failure = error }
        } else {
            failure = Self.folderFailure("\(root)/\(flavor.rawValue)")
        }
        memory.withLock { $0.insert(key: target, entry: .init(image: representation.image, stamp: stamp, source: "cache", contentType: representation.contentType, facts: facts)) }
        // A success makes an old failure entry stale.
        unlink(failurePath(forFile: absolute))
        if writesShared {
            text[0] = ("Thumb::URI", Self.sharedURI(forFile: absolute))
            // A file not everyone may read gets no shared thumbnail by design; one that may but
            // could not be written (a read-only share, a planted link in the way) is a failure.
            if SharedRepository.mayPublish(absolute),
               !SharedRepository.publish(PNGEncoder.encode(representation.image, text: text, opaqueAsRGB: true), forFile: absolute,
                                         name: Self.sharedName(forFile: absolute), flavor: flavor.rawValue) {
                failure = failure ?? ThumbnailError(.writeFailed, "the personal cache has it, but .sh_thumbnails beside it could not be written safely (a read-only share, or a link or another user's file in the way)")
            }
        }
        if let failure { throw failure }
        return png
    }

    /// With `writesShared`: makes the shared repository beside the file hold its thumbnail whatever
    /// the personal cache holds (`thumbnail -r --shared` over files thumbnailed before). A valid
    /// personal thumbnail is copied there with the repository's URI; true when nothing is left to
    /// make (done now, there already, or the file is not to be published), false when the
    /// thumbnail must be made first (which `store` then publishes).
    public func publishShared(forFile file: String, box: PixelSize) -> Bool {
        guard writesShared, let flavor = Flavor.smallest(covering: box), let stamp = FileStamp(path: file) else { return true }
        let absolute = PathNormalizer.absolute(file)
        guard SharedRepository.mayPublish(absolute) else { return true }
        let shared = Candidate(path: Self.sharedPath(forFile: absolute, flavor: flavor), uri: Self.sharedURI(forFile: absolute), source: "shared",
                               requiresMTime: false, isShared: true)
        if let png = read(shared), let info = PNGDecoder.info(png), isValid(info, stamp: stamp, candidate: shared) { return true }
        guard !ignoresStored, let own = candidatePaths(absolute, flavor: flavor).first(where: { !$0.isShared }), let png = read(own), let info = PNGDecoder.info(png),
              isValid(info, stamp: stamp, candidate: own), let image = PNGDecoder.decode(png) else { return false }
        var text = [("Thumb::URI", Self.sharedURI(forFile: absolute)), ("Thumb::MTime", String(stamp.modified)), ("Thumb::Size", String(stamp.size))]
        if let type = info.text["Thumb::Mimetype"] { text.append(("Thumb::Mimetype", type)) }
        text.append(("Software", Self.software))
        return SharedRepository.publish(PNGEncoder.encode(image, text: text, opaqueAsRGB: true), forFile: absolute,
                                        name: Self.sharedName(forFile: absolute), flavor: flavor.rawValue)
    }

    /// A cache folder that could not be made or is not writable, in words (errno as `ensureFolder` left it).
    private static func folderFailure(_ folder: String) -> ThumbnailError {
        ThumbnailError(.writeFailed, "cannot write into \(TerminalText.escaped(folder)): \(String(cString: strerror(errno == 0 ? EACCES : errno)))")
    }

    public func recordFailure(_ error: ThumbnailError, for request: ThumbnailRequest) {
        switch error.code {
        case .cancelled, .workerUnavailable, .writeFailed, .unreadable: return  // not the file's fault, or may change without a new mtime
        default: break
        }
        guard let stamp = FileStamp(path: request.path), !contains(request.path) else { return }
        let target = failurePath(forFile: request.path)
        guard ensureFolder(String(target[..<target.lastIndex(of: "/")!])) else { return }
        let text = [("Thumb::URI", FileURI.from(absolutePath: PathNormalizer.absolute(request.path))), ("Thumb::MTime", String(stamp.modified)),
                    ("Software", Self.software), ("X-QLBrowse::Reason", error.reason), ("X-QLBrowse::Code", error.code.rawValue)]
        try? AtomicFileWriter.write(PNGEncoder.encode(PixelImage(width: 1, height: 1, filledWith: .clear), text: text), to: target, permissions: 0o600)
    }

    /// Whether a valid thumbnail of the right size exists (for batch runs, without decoding it).
    /// `sharedToo`: one in a shared repository beside the file counts (false: only this cache's).
    /// `stamp`: the file's, when the caller has just read it (one stat less per file).
    public func hasValidThumbnail(forFile file: String, box: PixelSize, sharedToo: Bool = true, stamp known: FileStamp? = nil) -> Bool {
        guard !ignoresStored, let flavor = Flavor.smallest(covering: box), let stamp = known ?? FileStamp(path: file) else { return false }
        // The name (an MD5) is made outside the lock, and not at all while memory holds nothing (a
        // batch's): two threads looking up a re-run's files waited on each other for it.
        if memory.withLock({ $0.count > 0 }) {
            let key = path(forFile: file, flavor: flavor)
            if memory.withLock({ $0.entry(for: key, stamp: stamp) }) != nil { return true }
        }
        for candidate in candidatePaths(file, flavor: flavor) where sharedToo || !candidate.isShared {
            guard let png = read(candidate), let info = PNGDecoder.info(png, checksPixels: false) else { continue }
            if isValid(info, stamp: stamp, candidate: candidate) { return true }
        }
        return false
    }

    // MARK: Reading

    private struct Found {
        /// The pixels, decoded now or when first read (`checked`).
        let pixels: PicturePixels
        var image: PixelImage { pixels.image }
        let source: String
        let contentType: ContentType?
        /// The facts stored with it; nil when qlbrowse stored it without them (another program's
        /// thumbnail has none to give, and is not decoded again for them: empty).
        let facts: [FileFact]?
        /// The file the picture was read from (nil when it came from memory).
        var png: [UInt8]?
    }

    private struct Candidate {
        let path: String
        let uri: String
        let source: String
        /// The personal cache always records `Thumb::MTime`; a shared repository (a read-only share,
        /// a CD) may have thumbnails without it, which are then taken as they are.
        let requiresMTime: Bool
        /// In a shared repository: read beneath the file's folder through no link (others write there).
        var isShared = false
    }

    /// The personal cache's candidate, then (made only if it is asked for) the shared repository's.
    private func candidatePaths(_ file: String, flavor: Flavor) -> some Sequence<Candidate> {
        let absolute = PathNormalizer.absolute(file)
        return [false, true].lazy.filter { !$0 || self.readsShared }.map { shared in
            shared ? Candidate(path: Self.sharedPath(forFile: absolute, flavor: flavor), uri: Self.sharedURI(forFile: absolute),
                               source: "shared", requiresMTime: false, isShared: true)
                : { let uri = FileURI.from(absolutePath: absolute)
                    return Candidate(path: self.path(forURI: uri, flavor: flavor), uri: uri, source: "cache", requiresMTime: true) }()
        }
    }

    /// `decodes` false: a file's picture is checked and decoded only when read, and not kept in
    /// memory (for a caller that saves the file's PNG and is gone after).
    private func validImage(for file: String, flavor: Flavor, stamp: FileStamp, decodes: Bool = true) -> Found? {
        let key = path(forFile: file, flavor: flavor)
        if let hit = memory.withLock({ $0.entry(for: key, stamp: stamp) }) {
            return Found(pixels: .decoded(hit.image), source: hit.source, contentType: hit.contentType, facts: hit.facts)
        }
        for candidate in candidatePaths(file, flavor: flavor) {
            guard let png = read(candidate), let info = PNGDecoder.info(png), isValid(info, stamp: stamp, candidate: candidate) else { continue }
            guard let pixels = decodes ? PNGDecoder.decode(png).map(PicturePixels.decoded) : CheckedPNG(png).map(PicturePixels.checked) else { continue }
            let type = info.text["Thumb::Mimetype"].map(ContentType.init)
            let ours = info.text["Software"]?.hasPrefix("qlbrowse") ?? false
            let facts = info.text[FileFact.cacheKey].map(FileFact.parseCacheText) ?? (ours ? nil : [])
            if case .decoded(let image) = pixels {
                memory.withLock { $0.insert(key: key, entry: .init(image: image, stamp: stamp, source: candidate.source, contentType: type, facts: facts)) }
            }
            return Found(pixels: pixels, source: candidate.source, contentType: type, facts: facts, png: png)
        }
        return nil
    }

    /// The standard's rule: same URI, same MTime (`!=` means stale, not `>`; in a shared repository
    /// checked only when recorded), and same Size when recorded.
    private func isValid(_ info: PNGDecoder.Info, stamp: FileStamp, candidate: Candidate) -> Bool {
        guard info.text["Thumb::URI"] == candidate.uri else { return false }
        if let mtime = info.text["Thumb::MTime"] {
            guard mtime == String(stamp.modified) else { return false }
        } else if candidate.requiresMTime {
            return false
        }
        if let size = info.text["Thumb::Size"], size != String(stamp.size) { return false }
        return true
    }

    private func fitted(_ image: PixelImage, in box: PixelSize) -> PixelImage {
        let size = ThumbnailGeometry.fit(image.size, in: box)
        return size == image.size ? image : image.resized(to: size)
    }

    /// A cache entry's bytes; nil when missing, empty, not a regular file (a FIFO planted there
    /// is refused at once, never waited on), or 64 MiB or more (no thumbnail is that big). A shared
    /// repository's entry is reached beneath the file's folder through no symbolic link.
    private func read(_ candidate: Candidate) -> [UInt8]? {
        guard candidate.isShared else { return readFile(candidate.path) }
        let limit = 64 << 20
        guard let bytes = SharedRepository.read(candidate.path, upTo: limit), !bytes.isEmpty, bytes.count < limit else { return nil }
        return bytes
    }

    /// A personal cache entry's bytes (see `read(_:)`); its last component is never followed.
    private func readFile(_ path: String) -> [UInt8]? {
        let limit = 64 << 20
        guard let bytes = UntrustedFile.read(path, links: .refused, upTo: limit), !bytes.isEmpty, bytes.count < limit else { return nil }
        return bytes
    }

    private func ensureFolder(_ folder: String, mode: mode_t = 0o700) -> Bool {
        FolderMaker.make(folder, mode: mode) && access(folder, W_OK) == 0
    }
}
