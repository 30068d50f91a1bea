import BrowserCore
import FileSystemKit
import SystemKit

/// `F` over the browser: the query being typed, the best matches (the one under the cursor
/// highlighted), and how far the search is.
struct FindView {
    let context: ViewContext

    func draw(_ search: FindState, layout: ScreenLayout) {
        let report = search.report
        var lines = ["> " + TerminalText.escaped(search.query) + "▏", ""]
        let shown = max(1, layout.rows - 10)
        let best = report?.best ?? []
        let first = max(0, min(search.cursor - shown + 1, best.count - shown))
        lines += best.dropFirst(first).prefix(shown).map { "  " + TerminalText.escaped($0) }
        if best.isEmpty { lines.append(report == nil ? "  …" : "  nothing matches") }
        lines += ["", Self.progress(report)]
        let selected = best.isEmpty ? nil : search.cursor - first + 2
        BoxView(context: context).draw(title: " Find below \(TerminalText.escaped(search.root))   type to narrow · ↑/↓ choose · Enter goes · Esc closes",
                                      lines: lines, selected: selected, layout: layout, minimumWidth: min(100, layout.columns - 4))
    }

    /// "37 of 120,431 · walking…", and the folders that could not be read.
    static func progress(_ report: FileFinder.Report?) -> String {
        guard let report else { return "walking…" }
        var text = "\(DisplayFormat.count(report.matched)) of \(DisplayFormat.count(report.walked))" + (report.complete ? "" : " · walking…")
        if report.unreadable > 0 { text += " · \(report.unreadable) folder\(report.unreadable == 1 ? "" : "s") could not be read" }
        return text
    }
}
