import CArchive
import CAV
import CRaw
import CVips
import ThumbnailKit

/// The decoder libraries the worker opens at their first use rather than at its start (libav,
/// libvips, libraw, libarchive, and the editors' libqpdf: see CLazyLibrary), so a new worker is
/// ready in ~9 ms instead of ~50.
public enum LazyLibraries {
    /// Their file names (sonames), for the package's Depends and for `qlbrowse-thumbnailer --lazy-libraries`.
    public static var files: [String] {
        [CAV_library_file, CVips_library_file, CRaw_library_file, CArchive_library_file].flatMap(files(of:))
    }

    /// One library's file names, from its C target's `…_library_file(index)`.
    public static func files(of file: (Int32) -> UnsafePointer<CChar>?) -> [String] {
        (0..<4).compactMap { file(Int32($0)).map { String(cString: $0) } }
    }

    /// Throws the reason a library could not be opened (its `…_library_error()`, which opens it),
    /// if any: a clear error for the file where calling into it would end the worker.
    public static func require(_ failure: UnsafePointer<CChar>?) throws(ThumbnailError) {
        if let failure { throw ThumbnailError(.workerUnavailable, String(cString: failure)) }
    }
}
