import Providers
import ThumbnailKit

/// Does a `FileEdit` on the file at `input`, writing the result to `output` (a file the caller
/// made beside the original, with the same suffix): the worker's side of quick edits. The
/// original is only read; replacing it, or keeping both, is the caller's choice.
public enum FileEditor {
    public static func edit(_ edit: FileEdit, input: String, output: String, cancellation: CancellationFlag) throws(ThumbnailError) -> FileEditResult {
        switch edit {
        case .rotate(let quarterTurns, let flip):
            // The movie appended to a Motion Photo would not survive the picture being written again.
            if MotionPhoto.movieOffset(path: input) != nil {
                throw ThumbnailError(.unsupported, "this is a Motion Photo: turning the picture would lose the movie inside it")
            }
            let turn = PictureTurn(quarterTurns: quarterTurns, flip: flip)
            switch try pictureFormat(of: input) {
            case .jpeg: return try JPEGRotator.rotate(turn, input: input, output: output)
            case .other: return try PictureRotator.rotate(turn, input: input, output: output)
            }
        case .rotatePages(let pages, let quarterTurns):
            return try PDFPageRotator.rotate(pages: pages, quarterTurns: quarterTurns, input: input, output: output)
        case .trim(let start, let end):
            return try MediaRemuxer.trim(input: input, output: output, start: start, end: end, cancellation: cancellation)
        case .rotateVideo(let quarterTurns):
            return try MediaRemuxer.rotate(input: input, output: output, quarterTurns: quarterTurns, cancellation: cancellation)
        case .crop(let rect, let allowLossy):
            if MotionPhoto.movieOffset(path: input) != nil {
                throw ThumbnailError(.unsupported, "this is a Motion Photo: cropping the picture would lose the movie inside it")
            }
            switch try pictureFormat(of: input) {
            case .jpeg: return try JPEGCropper.crop(rect, input: input, output: output)
            case .other: return try PictureCropper.crop(rect, allowLossy: allowLossy, input: input, output: output)
            }
        case .annotate(let marks):
            if try isPDF(input) { return try PDFAnnotator.annotate(marks, input: input, output: output) }
            if MotionPhoto.movieOffset(path: input) != nil {
                throw ThumbnailError(.unsupported, "this is a Motion Photo: drawing on the picture would lose the movie inside it")
            }
            return try PictureMarker.draw(marks, input: input, output: output)
        }
    }

    private enum PictureFormat { case jpeg, other }

    /// A PDF by its header, which may follow up to 1024 bytes of anything (as readers allow).
    private static func isPDF(_ path: String) throws(ThumbnailError) -> Bool {
        let head = try FileBytes(path: path).read(at: 0, count: 1024)
        let marker = Array("%PDF-".utf8)
        return head.count >= marker.count && (0...(head.count - marker.count)).contains { Array(head[$0..<$0 + marker.count]) == marker }
    }

    /// JPEGs by their first bytes (a JPEG named .png is still turned losslessly).
    private static func pictureFormat(of path: String) throws(ThumbnailError) -> PictureFormat {
        let head = try FileBytes(path: path).read(at: 0, count: 3)
        return head == [0xFF, 0xD8, 0xFF] ? .jpeg : .other
    }
}
