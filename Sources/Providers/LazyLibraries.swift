import CAV
import CVips
import ThumbnailKit

/// The decoder libraries the worker opens at their first use rather than at its start (libav and
/// libvips: see CLazyLibrary), so a new worker answers a PDF or a JPEG in ~11 ms instead of ~50.
public enum LazyLibraries {
    /// Their file names (sonames), for the package's Depends and for `qlbrowse-thumbnailer --lazy-libraries`.
    public static var files: [String] {
        (0..<4).compactMap { CAV_library_file(Int32($0)).map { String(cString: $0) } }
            + (0..<4).compactMap { CVips_library_file(Int32($0)).map { String(cString: $0) } }
    }

    /// Opens libav if it is not yet; a clear error when it cannot be (an incomplete installation),
    /// where calling into it would end the worker.
    public static func requireLibav() throws(ThumbnailError) {
        if let why = CAV_library_error() { throw ThumbnailError(.workerUnavailable, String(cString: why)) }
    }
}
