import CArchive
import CAV
import CMagic
import CPNG
import CRaw
import CTIFF
import CVips
import SystemKit

// The decoder libraries' calls that take a path, taking it as the `String` that carries the
// file name's bytes (`FileSystemBytes`): preferred by Swift to the implicit String-to-pointer
// conversion, so a name that is not UTF-8 reaches libvips, libav, libraw, libarchive, libmagic,
// libpng and libtiff as itself, never as its drawn form (see `SystemKit/Files/PathCalls.swift`).

func CVips_thumbnail(_ path: String, _ out: UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>, _ width: Int32, _ height: Int32) -> Int32 {
    path.withFileSystemRepresentation { CVips.CVips_thumbnail($0, out, width, height) }
}

func CVips_thumbnail_any_size(_ path: String, _ out: UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>, _ width: Int32, _ height: Int32) -> Int32 {
    path.withFileSystemRepresentation { CVips.CVips_thumbnail_any_size($0, out, width, height) }
}

func CVips_open_header(_ path: String) -> UnsafeMutablePointer<VipsImage>? {
    path.withFileSystemRepresentation { CVips.CVips_open_header($0) }
}

func CVips_loader(_ path: String) -> UnsafePointer<CChar>? {
    path.withFileSystemRepresentation { CVips.CVips_loader($0) }
}

func CPNG_open(_ path: String) -> UnsafeMutablePointer<CPNG_reader>? {
    path.withFileSystemRepresentation { CPNG.CPNG_open($0) }
}

func CTIFF_open(_ path: String, _ maxPixels: Int64) -> UnsafeMutablePointer<CTIFF_reader>? {
    path.withFileSystemRepresentation { CTIFF.CTIFF_open($0, maxPixels) }
}

func magic_file(_ cookie: magic_t, _ path: String) -> UnsafePointer<CChar>? {
    path.withFileSystemRepresentation { CMagic.magic_file(cookie, $0) }
}

func archive_read_open_filename(_ archive: OpaquePointer, _ path: String, _ blockSize: Int) -> Int32 {
    path.withFileSystemRepresentation { CArchive.archive_read_open_filename(archive, $0, blockSize) }
}

func libraw_open_file(_ raw: UnsafeMutablePointer<libraw_data_t>, _ path: String) -> Int32 {
    path.withFileSystemRepresentation { CRaw.libraw_open_file(raw, $0) }
}

func avformat_open_input(_ context: UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>, _ url: String,
                         _ format: UnsafePointer<AVInputFormat>?, _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    url.withFileSystemRepresentation { CAV.avformat_open_input(context, $0, format, options) }
}
