import CQPDF
import ThumbnailKit

/// What qpdf's last error means to the user, in one sentence: a PDF that needs a password
/// (`passwordNote` says what that rules out), else `what` with qpdf's own detail.
enum QPDFFailure {
    static func error(_ qpdf: qpdf_data, _ what: String, passwordNote: String = "") -> ThumbnailError {
        guard qpdf_has_error(qpdf) == QPDF_TRUE, let error = qpdf_get_error(qpdf) else { return ThumbnailError(.corrupt, what) }
        if qpdf_get_error_code(qpdf, error) == qpdf_e_password {
            return ThumbnailError(.encrypted, "the PDF is encrypted and needs a password" + passwordNote)
        }
        let detail = qpdf_get_error_message_detail(qpdf, error).map { String(cString: $0) } ?? ""
        return ThumbnailError(.corrupt, detail.isEmpty ? what : "\(what): \(detail)")
    }
}
