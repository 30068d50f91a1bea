import BrowserCore
import SystemKit
import ThumbnailKit

/// The top line: the folder, the filter being typed, and at the right end a spinner while a
/// volume is awaited or a banner when one went away.
struct HeaderView {
    let context: ViewContext

    static let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    /// The tabs at the right of the header: each one's number and folder name, the one shown in brackets.
    static func tabs(_ state: BrowserState) -> String {
        state.tabs.indices.map { index in
            let folder = index == state.currentTab ? state.folder : state.tabs[index].folder
            let name = TerminalText.escaped(BrowserState.lastComponent(folder))
            let label = "\(index + 1) " + String(name.prefix(16))
            return index == state.currentTab ? "[\(label)]" : " \(label) "
        }.joined() + " "
    }

    func draw(_ state: BrowserState) {
        let screen = context.screen, columns = state.layout.columns
        let style = context.style(.header)
        var title = " " + TerminalText.escaped(state.folder)
        if !state.filter.isEmpty || state.isTypingFilter { title += "   /" + TerminalText.escaped(state.filter) + (state.isTypingFilter ? "▏" : "") }
        screen.text(title, row: 0, column: 0, width: columns, style: style, fill: true)
        if state.tabs.count > 1, state.waitingFor == nil, state.banner == nil {
            let tabs = Self.tabs(state)
            let width = min(tabs.count, columns / 2)
            screen.text(tabs, row: 0, column: columns - width, width: width, style: style, fill: true)
        }
        var notice: (String, Theme.Part)?
        if let volume = state.waitingFor {
            let spinner = Self.spinner[state.spinnerFrame % Self.spinner.count]
            notice = (" \(spinner) waiting for \(TerminalText.escaped(volume))… (Esc goes back) ", .message)
        } else if let banner = state.banner {
            notice = (" \(TerminalText.escaped(banner)) ", .error)
        }
        if let (text, part) = notice {
            let width = min(text.count, columns / 2)
            screen.text(text, row: 0, column: columns - width, width: width, style: context.style(part).on(style), fill: true)
        }
    }
}
