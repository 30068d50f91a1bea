import SystemKit
import CQPDF
import Providers
import ThumbnailKit

/// Adds Markup to a PDF as real annotations (/Square, /Circle, /Line, /Highlight, /FreeText,
/// /Ink), each with its appearance stream, through qpdf: the pages' content is not touched,
/// nothing is rendered, annotations already there stay, streams are copied as they are, and an
/// encrypted PDF that opens without a password keeps its encryption. (Why qpdf rather than
/// poppler-glib: DECISIONS.md.)
enum PDFAnnotator {
    static func annotate(_ marks: [Mark], input: String, output: String) throws(ThumbnailError) -> FileEditResult {
        guard !marks.isEmpty else { throw ThumbnailError(.unsupported, "no marks to add") }
        if let problem = marks.lazy.compactMap(\.problem).first { throw ThumbnailError(.unsupported, problem) }
        try LazyLibraries.require(CQPDF_library_error())
        guard let qpdf = qpdf_init() else { throw ThumbnailError(.tooLarge, "out of memory") }
        var doomed: qpdf_data? = qpdf
        defer { qpdf_cleanup(&doomed) }
        qpdf_set_suppress_warnings(qpdf, QPDF_TRUE)
        if CQPDF_failed(qpdf_read(qpdf, input, "")) != 0 { throw failure(qpdf, "cannot read the PDF") }
        if qpdf_is_encrypted(qpdf) == QPDF_TRUE, qpdf_allow_modify_annotation(qpdf) != QPDF_TRUE {
            throw ThumbnailError(.encrypted, "the PDF is encrypted and its owner does not allow adding annotations")
        }
        if isSigned(qpdf) {
            throw ThumbnailError(.unsupported, "the PDF is signed: writing it again would break its signature")
        }
        let count = Int(qpdf_get_num_pages(qpdf))
        guard count > 0 else { throw failure(qpdf, "the PDF has no pages") }
        if let outside = marks.first(where: { $0.page < 0 || $0.page >= count }) {
            throw ThumbnailError(.unsupported, "there is no page \(outside.page + 1): the PDF has \(count)")
        }
        for mark in marks {
            let page = qpdf_get_page_n(qpdf, mark.page)
            let frame = PDFPageFrame(box: box(of: page, in: qpdf), rotation: rotation(of: page, in: qpdf))
            guard mark.overlaps(width: frame.shownWidth, height: frame.shownHeight) else {
                throw ThumbnailError(.unsupported, "the mark is off page \(mark.page + 1), which is \(PDFNumber.text(frame.shownWidth))×\(PDFNumber.text(frame.shownHeight)) points as shown")
            }
            let annotation = PDFAnnotationBuilder(frame: frame).annotation(mark)
            try add(annotation, to: page, in: qpdf)
        }
        guard CQPDF_failed(qpdf_init_write(qpdf, output)) == 0 else { throw failure(qpdf, "cannot write the PDF") }
        CQPDF_preserve(qpdf)  // write settings follow qpdf_init_write
        guard CQPDF_failed(qpdf_write(qpdf)) == 0 else { throw failure(qpdf, "cannot write the PDF") }
        try EditOutput.flush(path: output)
        return FileEditResult(pages: nil, marks: marks.count)
    }

    /// Makes the appearance stream and the annotation, and appends the annotation to the page's
    /// /Annots (made when the page has none; an indirect array is changed where it is).
    private static func add(_ annotation: PDFAnnotationBuilder.Annotation, to page: qpdf_oh, in qpdf: qpdf_data) throws(ThumbnailError) {
        let form = qpdf_oh_new_stream(qpdf)
        let content = Array(annotation.appearance.content.utf8)
        content.withUnsafeBufferPointer {
            qpdf_oh_replace_stream_data(qpdf, form, $0.baseAddress, $0.count, qpdf_oh_new_null(qpdf), qpdf_oh_new_null(qpdf))
        }
        let formDictionary = qpdf_oh_get_dict(qpdf, form)
        let appearance = annotation.appearance
        let entries = ["/Type": "/XObject", "/Subtype": "/Form", "/BBox": PDFNumber.array(appearance.bbox),
                       "/Matrix": PDFNumber.array(appearance.matrix), "/Resources": appearance.resources]
        for (key, value) in entries { qpdf_oh_replace_key(qpdf, formDictionary, key, qpdf_oh_parse(qpdf, value)) }
        let dictionary = qpdf_oh_parse(qpdf, annotation.dictionary)
        let streams = qpdf_oh_parse(qpdf, "<< >>")
        qpdf_oh_replace_key(qpdf, streams, "/N", form)
        qpdf_oh_replace_key(qpdf, dictionary, "/AP", streams)
        qpdf_oh_replace_key(qpdf, dictionary, "/P", page)
        guard qpdf_has_error(qpdf) != QPDF_TRUE else { throw failure(qpdf, "cannot make the annotation") }
        let indirect = qpdf_make_indirect_object(qpdf, dictionary)
        if qpdf_oh_has_key(qpdf, page, "/Annots") == QPDF_TRUE, qpdf_oh_is_array(qpdf, qpdf_oh_get_key(qpdf, page, "/Annots")) == QPDF_TRUE {
            qpdf_oh_append_item(qpdf, qpdf_oh_get_key(qpdf, page, "/Annots"), indirect)
        } else {
            let annots = qpdf_oh_new_array(qpdf)
            qpdf_oh_append_item(qpdf, annots, indirect)
            qpdf_oh_replace_key(qpdf, page, "/Annots", annots)
        }
        guard qpdf_has_error(qpdf) != QPDF_TRUE else { throw failure(qpdf, "cannot add the annotation to the page") }
    }

    /// Whether the form says signatures exist (/AcroForm /SigFlags bit 1): qpdf rewrites the whole
    /// file, which no signature over the old bytes survives.
    private static func isSigned(_ qpdf: qpdf_data) -> Bool {
        let root = qpdf_get_root(qpdf)
        guard qpdf_oh_has_key(qpdf, root, "/AcroForm") == QPDF_TRUE else { return false }
        let form = qpdf_oh_get_key(qpdf, root, "/AcroForm")
        guard qpdf_oh_has_key(qpdf, form, "/SigFlags") == QPDF_TRUE else { return false }
        let flags = qpdf_oh_get_key(qpdf, form, "/SigFlags")
        return qpdf_oh_is_integer(qpdf, flags) == QPDF_TRUE && qpdf_oh_get_int_value_as_int(qpdf, flags) & 1 != 0
    }

    /// The page's crop box, else its media box (either inherited from the page tree), as numbers.
    private static func box(of page: qpdf_oh, in qpdf: qpdf_data) -> [Double] {
        for key in ["/CropBox", "/MediaBox"] {
            guard let value = inherited(key, of: page, in: qpdf), qpdf_oh_is_array(qpdf, value) == QPDF_TRUE,
                  qpdf_oh_get_array_n_items(qpdf, value) == 4 else { continue }
            let numbers = (0..<4).map { qpdf_oh_get_array_item(qpdf, value, Int32($0)) }
            guard numbers.allSatisfy({ qpdf_oh_is_number(qpdf, $0) == QPDF_TRUE }) else { continue }
            return numbers.map { qpdf_oh_get_numeric_value(qpdf, $0) }
        }
        return [0, 0, 612, 792]
    }

    /// The page's /Rotate, its own or inherited.
    private static func rotation(of page: qpdf_oh, in qpdf: qpdf_data) -> Int {
        guard let value = inherited("/Rotate", of: page, in: qpdf), qpdf_oh_is_integer(qpdf, value) == QPDF_TRUE else { return 0 }
        return Int(qpdf_oh_get_int_value_as_int(qpdf, value))
    }

    /// A page attribute from the page or the nearest parent that has it (at most 64 levels up).
    private static func inherited(_ key: String, of page: qpdf_oh, in qpdf: qpdf_data) -> qpdf_oh? {
        var node = page
        for _ in 0..<64 {
            if qpdf_oh_has_key(qpdf, node, key) == QPDF_TRUE { return qpdf_oh_get_key(qpdf, node, key) }
            guard qpdf_oh_has_key(qpdf, node, "/Parent") == QPDF_TRUE else { return nil }
            node = qpdf_oh_get_key(qpdf, node, "/Parent")
        }
        return nil
    }

    private static func failure(_ qpdf: qpdf_data, _ what: String) -> ThumbnailError {
        QPDFFailure.error(qpdf, what, passwordNote: ": annotations can be added only to a PDF that opens without one")
    }
}
