import CQPDF
import Providers

/// The editors' library opened at its first use (libqpdf, for PDF page turns; see CLazyLibrary and
/// `Providers.LazyLibraries`), for the package's Depends.
public enum EditorLibraries {
    public static var files: [String] {
        LazyLibraries.files(of: CQPDF_library_file)
    }
}
