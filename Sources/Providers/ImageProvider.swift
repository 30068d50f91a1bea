import ThumbnailKit

/// Images libvips can load: JPEG, PNG, GIF, WebP, TIFF, HEIC/AVIF, SVG, JPEG 2000, JPEG XL, …
///
/// Low quality comes from what the JPEG already carries (the EXIF IFD1 thumbnail, an MPF preview);
/// the thumbnail is a shrink-on-load decode with the orientation applied (baseline JPEGs straight
/// through libjpeg, common PNGs, TIFFs and still WebPs through their own libraries, everything
/// else through libvips).
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
           let (image, source) = EmbeddedThumbnail.image(file: file, metadata: metadata, box: job.box, cancel: job.cancellation.cFlag) {
            emit(ProviderImage(.thumbnail, image, source: source))
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
                                                              cancel: job.cancellation.cFlag) {
            emit(ProviderImage(.thumbnail, image, source: "libjpeg", facts: job.wantsFacts ? readHeader().facts : []))
            return
        }
        if let (image, source) = try directThumbnail(job) {
            emit(ProviderImage(.thumbnail, image, source: source, facts: job.wantsFacts ? readHeader().facts : []))
            return
        }
        let image = try VipsDecoder.thumbnail(path: job.path, box: job.box, displayedSize: { readHeader().size }, cancellation: job.cancellation)
        emit(ProviderImage(.thumbnail, image, source: name, facts: job.wantsFacts ? readHeader().facts : []))
    }

    /// PNG, TIFF and WebP through their own libraries, which the worker has loaded anyway (poppler
    /// and cairo bring them), rather than libvips and its hundred: nil for a file left to libvips.
    private func directThumbnail(_ job: ProviderJob) throws(ThumbnailError) -> (PixelImage, String)? {
        switch job.contentType.identifier {
        case "image/png": try PNGFileDecoder.thumbnail(path: job.path, box: job.box, cancellation: job.cancellation).map { ($0, "libpng") }
        case "image/tiff": try TIFFFileDecoder.thumbnail(path: job.path, box: job.box, cancellation: job.cancellation).map { ($0, "libtiff") }
        case "image/webp": try WebPFileDecoder.thumbnail(path: job.path, box: job.box, cancellation: job.cancellation).map { ($0, "libwebp") }
        default: nil
        }
    }

    /// The cheapest picture already inside the file, as the low quality: EXIF thumbnail first
    /// (tiny, instant), else an MPF preview.
    private func embeddedPreview(_ job: ProviderJob, file: FileBytes, metadata: JPEGMetadata) -> ProviderImage? {
        for (range, source) in EmbeddedThumbnail.candidates(metadata) {
            let bytes = file.read(at: range.lowerBound, count: range.count)
            guard bytes.count == range.count else { continue }
            // EXIF thumbnails carry no orientation of their own: the main image's applies. MPF previews have their own EXIF.
            guard let decoded = try? VipsDecoder.thumbnail(bytes: bytes, box: job.box, autorotate: source != "exif", cancellation: job.cancellation) else { continue }
            return ProviderImage(.lowQuality, source == "exif" ? decoded.applyingOrientation(metadata.orientation) : decoded, source: source)
        }
        return nil
    }
}
