import CAV
import CQPDF
import CVips
import SystemKit

// The editors' library calls that take a path, taking it as the `String` that carries the file
// name's bytes (`FileSystemBytes`), as `Providers/LibraryPathCalls.swift` does for the decoders.

func CVips_open(_ path: String) -> UnsafeMutablePointer<VipsImage>? {
    path.withFileSystemRepresentation { CVips.CVips_open($0) }
}

func CVips_write(_ image: UnsafeMutablePointer<VipsImage>, _ path: String) -> Int32 {
    path.withFileSystemRepresentation { CVips.CVips_write(image, $0) }
}

func qpdf_read(_ qpdf: qpdf_data, _ path: String, _ password: String) -> QPDF_ERROR_CODE {
    path.withFileSystemRepresentation { file in password.withCString { CQPDF.qpdf_read(qpdf, file, $0) } }
}

func qpdf_init_write(_ qpdf: qpdf_data, _ path: String) -> QPDF_ERROR_CODE {
    path.withFileSystemRepresentation { CQPDF.qpdf_init_write(qpdf, $0) }
}

func avformat_open_input(_ context: UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>, _ url: String,
                         _ format: UnsafePointer<AVInputFormat>?, _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    url.withFileSystemRepresentation { CAV.avformat_open_input(context, $0, format, options) }
}

func avformat_alloc_output_context2(_ context: UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>, _ format: UnsafePointer<AVOutputFormat>?,
                                    _ formatName: UnsafePointer<CChar>?, _ path: String) -> Int32 {
    path.withFileSystemRepresentation { CAV.avformat_alloc_output_context2(context, format, formatName, $0) }
}
