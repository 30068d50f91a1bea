import SystemKit
import CRaw
import ThumbnailKit

/// Camera RAW files (DNG, CR2, NEF, ARW, ORF, RW2, RAF, PEF, …): the preview the camera embedded,
/// read through libraw without developing the sensor data. A CR3 libraw cannot open (a camera
/// newer than the library) gives its PRVW JPEG, read here; a file with no preview at all (a DNG of
/// sensor data only) is developed by libraw at half size.
public struct RawProvider: ThumbnailProvider {
    public let name = "libraw"

    public init() {}

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        try LazyLibraries.require(CRaw_library_error())
        guard let raw = libraw_init(0) else { throw ThumbnailError(.unreadable, "libraw could not start") }
        defer { libraw_close(raw) }
        var status = libraw_open_file(raw, job.path)
        guard status == LIBRAW_SUCCESS.rawValue else {
            let failure = error("cannot open raw file", status)
            guard let preview = try canonPreview(job) else { throw failure }
            emit(preview)
            return
        }
        status = libraw_unpack_thumb(raw)
        guard status == LIBRAW_SUCCESS.rawValue else {
            let failure = error("no embedded preview", status)
            if let preview = try canonPreview(job) {
                emit(preview)
                return
            }
            // No preview: the sensor data, developed at half size (not cheap: not for low quality alone).
            guard job.wantsThumbnail else { throw failure }
            try job.cancellation.check()
            let facts = Self.facts(raw)  // before developing, which halves the sizes
            if let developed = try? develop(raw, job: job) {
                emit(ProviderImage(.thumbnail, developed, source: "libraw", facts: facts))
                return
            }
            // DNGs libraw cannot develop may still be TIFFs libvips can decode.
            if job.contentType.identifier == "image/x-adobe-dng", VipsDecoder.hasLoader(for: job.path) {
                emit(ProviderImage(.thumbnail, try VipsDecoder.thumbnail(path: job.path, box: job.box, cancellation: job.cancellation), source: "vips"))
                return
            }
            throw failure
        }
        try job.cancellation.check()
        var makeStatus: Int32 = 0
        guard let processed = libraw_dcraw_make_mem_thumb(raw, &makeStatus) else { throw error("cannot read the embedded preview", makeStatus) }
        defer { libraw_dcraw_clear_mem(processed) }
        let header = processed.pointee
        let dataSize = Int(header.data_size)
        let image: PixelImage
        // `data` is a C flexible array member: its bytes follow the header in the same allocation.
        let data = UnsafeRawPointer(processed) + (MemoryLayout<libraw_processed_image_t>.offset(of: \libraw_processed_image_t.data) ?? 0)
        if header.type == LIBRAW_IMAGE_JPEG {
            let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: dataSize))
            image = try VipsDecoder.thumbnail(bytes: bytes, box: job.box, autorotate: false, cancellation: job.cancellation)
        } else if header.type == LIBRAW_IMAGE_BITMAP, header.colors == 3, header.bits == 8 {
            image = try bitmap(processed, box: job.box)
        } else {
            throw ThumbnailError(.unsupported, "the embedded preview is in a format qlbrowse does not read")
        }
        emit(ProviderImage(.thumbnail, image.applyingOrientation(Self.orientation(fromFlip: CRaw_flip(raw))), source: name, facts: Self.facts(raw)))
    }

    /// A CR3's PRVW JPEG fitted into the box, or nil when the file is not a CR3 with one.
    private func canonPreview(_ job: ProviderJob) throws(ThumbnailError) -> ProviderImage? {
        guard let file = try? FileBytes(path: job.path), let preview = CR3Preview.locate(in: file) else { return nil }
        let bytes = file.read(at: preview.jpeg.lowerBound, count: preview.jpeg.count)
        guard bytes.count == preview.jpeg.count else { return nil }
        let image = try VipsDecoder.thumbnail(bytes: bytes, box: job.box, autorotate: false, cancellation: job.cancellation)
        var facts = [FileFact("preview", "\(preview.width)×\(preview.height) (embedded)")]
        if let camera = preview.camera { facts.insert(FileFact("camera", camera), at: 0) }
        // The camera's own preview, as other raws' embedded ones: the thumbnail, or the low quality alone.
        return ProviderImage(job.wantsThumbnail ? .thumbnail : .lowQuality, image.applyingOrientation(preview.orientation), source: "cr3", facts: facts)
    }

    /// The sensor data developed at half size (libraw applies the orientation), fitted into the box.
    private func develop(_ raw: UnsafeMutablePointer<libraw_data_t>, job: ProviderJob) throws(ThumbnailError) -> PixelImage {
        CRaw_develop_for_thumbnail(raw)
        var status = libraw_unpack(raw)
        guard status == LIBRAW_SUCCESS.rawValue else { throw error("cannot read the sensor data", status) }
        try job.cancellation.check()
        status = libraw_dcraw_process(raw)
        guard status == LIBRAW_SUCCESS.rawValue else { throw error("cannot develop the sensor data", status) }
        try job.cancellation.check()
        guard let developed = libraw_dcraw_make_mem_image(raw, &status) else { throw error("cannot develop the sensor data", status) }
        defer { libraw_dcraw_clear_mem(developed) }
        return try bitmap(developed, box: job.box)
    }

    /// An 8-bit RGB libraw image as RGBA, fitted into the box.
    private func bitmap(_ processed: UnsafeMutablePointer<libraw_processed_image_t>, box: PixelSize) throws(ThumbnailError) -> PixelImage {
        let header = processed.pointee
        let width = Int(header.width), height = Int(header.height)
        let data = UnsafeRawPointer(processed) + (MemoryLayout<libraw_processed_image_t>.offset(of: \libraw_processed_image_t.data) ?? 0)
        guard header.type == LIBRAW_IMAGE_BITMAP, header.colors == 3, header.bits == 8, width > 0, height > 0,
              Int(header.data_size) >= width * height * 3 else { throw ThumbnailError(.corrupt, "the raw picture is damaged") }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        let source = data.assumingMemoryBound(to: UInt8.self)
        for index in 0..<(width * height) {
            rgba[index * 4] = source[index * 3]
            rgba[index * 4 + 1] = source[index * 3 + 1]
            rgba[index * 4 + 2] = source[index * 3 + 2]
        }
        let full = PixelImage(width: width, height: height, pixels: rgba)
        return full.resized(to: ThumbnailGeometry.fit(full.size, in: box))
    }

    /// The camera and the sensor's size, from libraw's identification.
    static func facts(_ raw: UnsafeMutablePointer<libraw_data_t>) -> [FileFact] {
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        var facts: [FileFact] = []
        let make = text(raw.pointee.idata.make), model = text(raw.pointee.idata.model)
        if !model.isEmpty { facts.append(FileFact("camera", model.hasPrefix(make) ? model : "\(make) \(model)")) }
        let width = Int(raw.pointee.sizes.width), height = Int(raw.pointee.sizes.height)
        if width > 0 && height > 0 { facts.insert(FileFact("dimensions", "\(width)×\(height)"), at: 0) }
        return facts
    }

    /// libraw's `flip` (0, 3, 5, 6) as an EXIF orientation.
    static func orientation(fromFlip flip: Int32) -> Int {
        switch flip {
        case 3: return 3
        case 5: return 8
        case 6: return 6
        default: return 1
        }
    }

    private func error(_ what: String, _ status: Int32) -> ThumbnailError {
        let detail = status == LIBRAW_IO_ERROR.rawValue ? "the raw data is cut short or missing" : String(cString: libraw_strerror(status))
        let code: ThumbnailError.Code = status == LIBRAW_FILE_UNSUPPORTED.rawValue ? .unsupported : .noPreview
        return ThumbnailError(code, "\(what) (\(detail))")
    }
}
