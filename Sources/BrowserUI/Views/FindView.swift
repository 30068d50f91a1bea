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
        lines += ["", search.insideFiles ? Self.contentProgress(report) : Self.progress(report)]
        let selected = best.isEmpty ? nil : search.cursor - first + 2
        let what = search.insideFiles ? "Files containing, below" : "Find below"
        BoxView(context: context).draw(title: " \(what) \(TerminalText.escaped(search.root))   ↑/↓ choose · Enter goes · Tab \(search.insideFiles ? "names" : "inside files") · Esc closes",
                                      lines: lines, selected: selected, layout: layout, minimumWidth: min(100, layout.columns - 4))
    }

    /// "12 files contain it · searching…".
    static func contentProgress(_ report: FileFinder.Report?) -> String {
        guard let report else { return "type what the files contain (ripgrep, smart case)" }
        return "\(DisplayFormat.count(report.matched)) file\(report.matched == 1 ? "" : "s") contain\(report.matched == 1 ? "s" : "") it" + (report.complete ? "" : " · searching…")
    }

    /// "37 of 120,431 · walking…", and the folders that could not be read.
    static func progress(_ report: FileFinder.Report?) -> String {
        guard let report else { return "walking…" }
        var text = "\(DisplayFormat.count(report.matched)) of \(DisplayFormat.count(report.walked))" + (report.complete ? "" : " · walking…")
        if report.unreadable > 0 { text += " · \(report.unreadable) folder\(report.unreadable == 1 ? "" : "s") could not be read" }
        return text
    }
}
