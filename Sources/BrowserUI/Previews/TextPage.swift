import Places
import SystemKit
import ThumbnailKit

/// Lines of a text file as Quick Look shows them: made visible, coloured when a highlighter
/// knows the language, from line `first`; `total` once the file's end has been reached.
struct TextPage: Sendable, Equatable {
    let path: String
    let first: Int
    let lines: [StyledLine]
    let total: Int?
    /// Why nothing could be read ("Permission denied"), shown instead of the lines.
    var problem: String?

    /// Whether this page holds every line of `range` (or all there are of it, at the end).
    func covers(_ range: Range<Int>) -> Bool {
        guard problem == nil else { return true }
        let end = first + lines.count
        return first <= range.lowerBound && (range.upperBound <= end || total.map { end >= $0 } == true)
    }
}

extension TextPage {
    /// Makes `read` visible and colours it. Off the UI thread.
    static func make(_ path: String, _ read: TextFileWindow.Lines) -> TextPage {
        let visible = read.lines.map { TextPreview.visible(TextPreview.decode($0), maxColumns: TextFileWindow.maxLineBytes) }
        let name = String(path.split(separator: "/").last ?? "")
        let styled = Highlighter.highlight(visible, fileName: name) ?? visible.map(StyledLine.init(plain:))
        return TextPage(path: path, first: read.first, lines: styled, total: read.total)
    }

    /// The page that says why nothing could be read from `line`.
    static func failed(_ path: String, from line: Int, _ error: FileSystemError) -> TextPage {
        let problem: String
        switch error.code {
        case .notResponding: problem = "cannot read: the volume is not responding"
        case .unsupported:
            let name = String(path.split(separator: "/").last ?? "")
            problem = "not read: \(name) \(error.context ?? "is not a regular file"), not a regular file"
        default: problem = "cannot read: \(error.context ?? error.message)"
        }
        return TextPage(path: path, first: line, lines: [], total: nil, problem: problem)
    }
}
