import BrowserCore
import FileSystemKit
import SystemKit
import ThumbnailKit

/// The bottom line: position and counts, sort, graphics, marks, clipboard and jobs on the left;
/// a message or the key hints on the right. While a name is typed, the prompt instead.
struct StatusLineView {
    let context: ViewContext
    /// The graphics mode's name, shown in brackets.
    let graphics: String
    /// Where the files are when not on this computer ("ssh:nas" with qlbrowse there, "sftp:nas" without), shown after the counts.
    var place: String? = nil

    /// The key hints, longest first: the longest that fits is shown. `v` names the view it
    /// switches to.
    static func hints(_ view: ViewMode) -> [String] {
        let other = view == .list ? "grid" : "list"
        return ["v \(other)  space preview  / filter  ? help  q quit ", "v \(other)  space preview  ? help ", "? help  q quit ", "? help "]
    }

    func draw(_ state: BrowserState) {
        if let prompt = state.prompt { return drawPrompt(prompt, state: state) }
        let layout = state.layout, screen = context.screen, row = layout.rows - 1
        let left = Self.summary(state, graphics: graphics, place: place)
        screen.text(left, row: row, column: 0, width: layout.columns, style: context.style(.status), fill: true)
        let room = layout.columns - left.count - 2
        // A message may cover the right part of the counts (the position stays readable).
        let right = state.message.map(TerminalText.escaped) ?? Self.hints(state.view).first { $0.count <= room } ?? ""
        guard !right.isEmpty else { return }
        let start = max(min(left.count + 2, 24), layout.columns - right.count)
        screen.text(right, row: row, column: start, width: layout.columns - start, style: context.style(state.message == nil ? .status : .message))
    }

    /// The left part: " 3/120  4 folders, 116 files  sort:name  [kitty]  2 marked  T 45% 120/260".
    static func summary(_ state: BrowserState, graphics: String, place: String? = nil) -> String {
        let folders = state.entries.folderCount, count = state.entries.count
        var text = " \(state.entries.isEmpty ? 0 : state.cursor + 1)/\(count)  \(folders) folders, \(count - folders) files"
        if let place { text += "  " + place }
        if !state.listingComplete { text += "  reading…" }
        text += "  sort:\(state.sort.rawValue)" + (state.showHidden ? "  hidden:shown" : "") + "  [\(graphics)]"
        if !state.marked.isEmpty { text += "  \(state.marked.count) marked" }
        if let clipboard = state.clipboard { text += "  \(clipboard.paths.count) to \(clipboard.isCut ? "move" : "copy")" }
        if let jobs = JobText.statusNote(state.jobs) { text += "  " + jobs }
        return text
    }

    /// The name being typed, with the cursor; the selection (what typing replaces) reversed.
    private func drawPrompt(_ prompt: TextPrompt, state: BrowserState) {
        let layout = state.layout
        let screen = context.screen, row = layout.rows - 1, style = context.style(.filter)
        let label: String
        switch prompt.purpose {
        case .rename(let name): label = " rename \(TerminalText.escaped(name)) to: "
        case .create: label = " new file (end with / for a folder): "
        case .note: label = " note: "
        case .connect: label = " server (smb://…, sftp://… or ssh://…, ↑↓ recent): "
        case .password(let url):
            let note = state.volumeState.passwordNote
            let server = (try? ServerAddress(parsing: url)).map { ($0.user.map { $0 + "@" } ?? "") + $0.host } ?? url
            label = (note.isEmpty ? "" : " " + note + " ·") + " password for \(TerminalText.escaped(server)): "
        }
        let masked = { if case .password = prompt.purpose { true } else { false } }()
        screen.text(label, row: row, column: 0, width: layout.columns, style: style, fill: true)
        var column = label.count
        if prompt.cursor == 0 { screen.text("▏", row: row, column: column, width: 1, style: style) }
        for (index, character) in prompt.characters.enumerated() {
            var characterStyle = style
            if prompt.selection?.contains(index) == true { characterStyle.reverse = true }
            let shown = masked ? "•" : TerminalText.escaped(String(character))
            screen.text(shown, row: row, column: column, width: 4, style: characterStyle)
            column += shown.count
            if index + 1 == prompt.cursor { screen.text("▏", row: row, column: column, width: 1, style: style) }
        }
    }
}
