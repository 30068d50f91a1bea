import ThumbnailKit

/// Images libvips can load: JPEG, PNG, GIF, WebP, TIFF, HEIC/AVIF, SVG, JPEG 2000, JPEG XL, …
///
/// Low quality comes from what the JPEG already carries (the EXIF IFD1 thumbnail, an MPF preview);
/// the thumbnail is a shrink-on-load decode with the orientation applied (baseline JPEGs straight
/// through libjpeg, everything else through libvips).
public struct ImageProvider: ThumbnailProvider {
    public let name = "vips"

    public init() {}

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        // A JPEG's header segments, read once for both the embedded preview and the orientation.
        var jpegHeader: (file: FileBytes, metadata: JPEGMetadata)??
        func readJPEGHeader() -> (file: FileBytes, metadata: JPEGMetadata)? {
            if let jpegHeader { return jpegHeader }
            let read = (try? FileBytes(path: job.path)).flatMap { file in
                JPEGMetadata.parse(header: file.read(at: 0, count: 128 * 1024), fileSize: file.size).map { (file, $0) }
            }
            jpegHeader = read
            return read
        }
        // A preview as good as the thumbnail, where the caller takes one (tumbler's way): no decode at all.
        if job.wantsThumbnail, job.embeddedSuffices, job.contentType.identifier == "image/jpeg", let (file, metadata) = readJPEGHeader(),
           let preview = embeddedPreview(job, file: file, metadata: metadata, asThumbnail: true) {
            emit(preview)
            return
        }
        if job.wantsLowQuality, let (file, metadata) = readJPEGHeader(), let preview = embeddedPreview(job, file: file, metadata: metadata) {
            emit(preview)
        }
        try job.cancellation.check()
        guard job.wantsThumbnail else { return }
        var header: (facts: [FileFact], size: PixelSize?)?
        func readHeader() -> (facts: [FileFact], size: PixelSize?) {
            if let header { return header }
            let read = ImageFacts.read(path: job.path)
            header = read
            return read
        }
        if job.contentType.identifier == "image/jpeg",
           case .image(let image) = try JPEGDecoder.thumbnail(path: job.path, box: job.box, orientation: readJPEGHeader()?.metadata.orientation ?? 1,
                                                              cancellation: job.cancellation) {
            emit(ProviderImage(.thumbnail, image, source: "libjpeg", facts: job.wantsFacts ? readHeader().facts : []))
            return
        }
        let image = try VipsDecoder.thumbnail(path: job.path, box: job.box, displayedSize: { readHeader().size }, cancellation: job.cancellation)
        emit(ProviderImage(.thumbnail, image, source: name, facts: job.wantsFacts ? readHeader().facts : []))
    }

    /// The cheapest picture already inside the file: EXIF thumbnail first (tiny, instant), else an MPF preview.
    /// `asThumbnail`: only one that can stand for the thumbnail (`fills`), handed out as the thumbnail.
    private func embeddedPreview(_ job: ProviderJob, file: FileBytes, metadata: JPEGMetadata, asThumbnail: Bool = false) -> ProviderImage? {
        let candidates: [(Range<Int>, String)] = [metadata.exifThumbnail.map { ($0, "exif") }].compactMap { $0 }
            + metadata.mpfPreviews.prefix(1).map { ($0, "mpf") }
        for (range, source) in candidates {
            let bytes = file.read(at: range.lowerBound, count: range.count)
            guard bytes.count == range.count else { continue }
            if asThumbnail {
                guard let image = metadata.storedSize, let preview = JPEGMetadata.parse(header: Array(bytes.prefix(128 * 1024)), fileSize: bytes.count)?.storedSize,
                      Self.fills(job.box, preview: preview, image: image, orientation: metadata.orientation) else { continue }
            }
            // EXIF thumbnails carry no orientation of their own: the main image's applies. MPF previews have their own EXIF.
            let orientation = source == "exif" ? metadata.orientation : JPEGMetadata.parse(header: Array(bytes.prefix(128 * 1024)), fileSize: bytes.count)?.orientation ?? 1
            // As the thumbnail (never enlarged), a baseline preview goes through libjpeg: no libvips
            // to load for a desktop's first screen. The others through libvips (which enlarges to the box).
            let image: PixelImage
            if asThumbnail, case .image(let decoded)? = try? JPEGDecoder.thumbnail(bytes: bytes, box: job.box, orientation: orientation, cancellation: job.cancellation) {
                image = decoded
            } else if let decoded = try? VipsDecoder.thumbnail(bytes: bytes, box: job.box, autorotate: source != "exif", cancellation: job.cancellation) {
                image = source == "exif" ? decoded.applyingOrientation(metadata.orientation) : decoded
            } else {
                continue
            }
            return ProviderImage(asThumbnail ? .thumbnail : .lowQuality, image, source: source)
        }
        return nil
    }

    /// Whether a preview stored at `preview` pixels can stand for the thumbnail of an image stored at
    /// `image` pixels in `box`: the same picture (aspect ratios within 1 %: no bars a camera added),
    /// and at least as many pixels as the image fitted to the box (never enlarged). Both sizes are
    /// as stored, before the orientation, so the box is turned with it.
    static func fills(_ box: PixelSize, preview: PixelSize, image: PixelSize, orientation: Int = 1) -> Bool {
        let turned = orientation >= 5 ? PixelSize(width: box.height, height: box.width) : box
        let sameShape = abs(preview.width * image.height - preview.height * image.width) * 100 <= image.width * preview.height
        let scale = min(Double(turned.width) / Double(image.width), Double(turned.height) / Double(image.height), 1)
        let needed = (width: (Double(image.width) * scale).rounded(), height: (Double(image.height) * scale).rounded())
        return sameShape && Double(preview.width) >= needed.width && Double(preview.height) >= needed.height
    }
}
