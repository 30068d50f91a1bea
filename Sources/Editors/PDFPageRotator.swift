import SystemKit
import CQPDF
import Providers
import ThumbnailKit

/// Turns PDF pages by their /Rotate entry (qpdf): nothing is rendered, streams are copied as
/// they are, so text, fonts and pictures stay exactly what they were. A rotation inherited from
/// the page tree is taken into account and the new one set on the page itself.
enum PDFPageRotator {
    static func rotate(pages wanted: [Int], quarterTurns: Int, input: String, output: String) throws(ThumbnailError) -> FileEditResult {
        try LazyLibraries.require(CQPDF_library_error())
        guard let qpdf = qpdf_init() else { throw ThumbnailError(.tooLarge, "out of memory") }
        var doomed: qpdf_data? = qpdf
        defer { qpdf_cleanup(&doomed) }
        qpdf_set_suppress_warnings(qpdf, QPDF_TRUE)
        if CQPDF_failed(qpdf_read(qpdf, input, "")) != 0 { throw QPDFFailure.error(qpdf, "cannot read the PDF") }
        let count = Int(qpdf_get_num_pages(qpdf))
        guard count > 0 else { throw QPDFFailure.error(qpdf, "the PDF has no pages") }
        let pages = wanted.isEmpty ? Array(0..<count) : wanted
        if let outside = pages.first(where: { $0 < 0 || $0 >= count }) {
            throw ThumbnailError(.unsupported, "there is no page \(outside + 1): the PDF has \(count)")
        }
        for index in Set(pages) {
            let page = qpdf_get_page_n(qpdf, index)
            let angle = (((rotation(of: page, in: qpdf) + 90 * quarterTurns) % 360) + 360) % 360
            qpdf_oh_replace_key(qpdf, page, "/Rotate", qpdf_oh_new_integer(qpdf, Int64(angle)))
        }
        guard CQPDF_failed(qpdf_init_write(qpdf, output)) == 0 else { throw QPDFFailure.error(qpdf, "cannot write the PDF") }
        CQPDF_preserve(qpdf)  // write settings follow qpdf_init_write
        guard CQPDF_failed(qpdf_write(qpdf)) == 0 else { throw QPDFFailure.error(qpdf, "cannot write the PDF") }
        try EditOutput.flush(path: output)
        return FileEditResult(pages: Set(pages).count)
    }

    /// The page's rotation: its own /Rotate, else the nearest parent's (at most 64 levels up).
    private static func rotation(of page: qpdf_oh, in qpdf: qpdf_data) -> Int {
        var node = page
        for _ in 0..<64 {
            if qpdf_oh_has_key(qpdf, node, "/Rotate") == QPDF_TRUE {
                let value = qpdf_oh_get_key(qpdf, node, "/Rotate")
                return qpdf_oh_is_integer(qpdf, value) == QPDF_TRUE ? Int(qpdf_oh_get_int_value_as_int(qpdf, value)) : 0
            }
            guard qpdf_oh_has_key(qpdf, node, "/Parent") == QPDF_TRUE else { return 0 }
            node = qpdf_oh_get_key(qpdf, node, "/Parent")
        }
        return 0
    }
}
