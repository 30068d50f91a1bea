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
    /// Reads lines through `window`, makes them visible and colours them. Off the UI thread.
    static func read(_ window: TextFileWindow, from line: Int, count: Int) -> TextPage {
        do {
            let read = try window.lines(from: line, count: count)
            let visible = read.lines.map { TextPreview.visible(TextPreview.decode($0), maxColumns: TextFileWindow.maxLineBytes) }
            let name = String(window.path.split(separator: "/").last ?? "")
            let styled = Highlighter.highlight(visible, fileName: name) ?? visible.map(StyledLine.init(plain:))
            return TextPage(path: window.path, first: read.first, lines: styled, total: read.total)
        } catch {
            switch error {
            case .unreadable(let reason):
                return TextPage(path: window.path, first: line, lines: [], total: nil, problem: "cannot read: \(reason)")
            case .refused(let what):
                let name = String(window.path.split(separator: "/").last ?? "")
                return TextPage(path: window.path, first: line, lines: [], total: nil, problem: "not read: \(name) \(what), not a regular file")
            }
        }
    }
}
