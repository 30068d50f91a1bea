import CArchive
import CAV
import CRaw
import CVips
import ThumbnailKit

/// The decoder libraries the worker opens at their first use rather than at its start (libav,
/// libvips, libraw, libarchive, and the editors' libqpdf: see CLazyLibrary), so a new worker is
/// ready in ~7 ms instead of ~50.
public enum LazyLibraries {
    /// Their file names (sonames), for the package's Depends and for `qlbrowse-thumbnailer --lazy-libraries`.
    public static var files: [String] {
        let named: [(Int32) -> UnsafePointer<CChar>?] = [CAV_library_file, CVips_library_file, CRaw_library_file, CArchive_library_file]
        return named.flatMap { file in (0..<4).compactMap { file(Int32($0)).map { String(cString: $0) } } }
    }

    /// Opens libav if it is not yet; a clear error when it cannot be (an incomplete installation),
    /// where calling into it would end the worker.
    public static func requireLibav() throws(ThumbnailError) {
        try require(CAV_library_error())
    }

    /// Throws the reason a library could not be opened (its `…_library_error()`), if any.
    public static func require(_ failure: UnsafePointer<CChar>?) throws(ThumbnailError) {
        if let failure { throw ThumbnailError(.workerUnavailable, String(cString: failure)) }
    }
}
