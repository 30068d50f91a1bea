import CQPDF

/// The editors' library opened at its first use (libqpdf, for PDF page turns; see CLazyLibrary and
/// `Providers.LazyLibraries`), for the package's Depends.
public enum EditorLibraries {
    public static var files: [String] {
        (0..<4).compactMap { CQPDF_library_file(Int32($0)).map { String(cString: $0) } }
    }
}
