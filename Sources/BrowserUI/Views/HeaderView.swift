import BrowserCore
import SystemKit
import ThumbnailKit

/// The top line: the folder, the filter being typed, and at the right end a spinner while a
/// volume is awaited or a banner when one went away.
struct HeaderView {
    let context: ViewContext

    static let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    func draw(_ state: BrowserState) {
        let screen = context.screen, columns = state.layout.columns
        let style = context.style(.header)
        var title = " " + TerminalText.escaped(state.folder)
        if !state.filter.isEmpty || state.isTypingFilter { title += "   /" + TerminalText.escaped(state.filter) + (state.isTypingFilter ? "▏" : "") }
        screen.text(title, row: 0, column: 0, width: columns, style: style, fill: true)
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
