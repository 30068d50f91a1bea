import BrowserCore

/// A box in the middle of the screen: a title bar and lines, the selected line highlighted and
/// kept in view.
struct BoxView {
    let context: ViewContext

    func draw(title: String, lines: [String], selected: Int?, layout: ScreenLayout, minimumWidth: Int = 60) {
        let screen = context.screen
        // Wide enough for the title too (a question cut in the middle is no question), within the screen.
        let width = min(layout.columns - 2, max(minimumWidth, (lines.map(\.count).max() ?? 40) + 4, title.count + 2))
        let height = min(layout.rows - 2, lines.count + 4)
        let top = max(1, (layout.rows - height) / 2), left = max(0, (layout.columns - width) / 2)
        let style = context.style(.help)
        screen.fill(row: top, column: left, width: width, height: height, style: style)
        screen.text(title, row: top, column: left, width: width, style: context.style(.header), fill: true)
        let first = max(0, (selected ?? 0) - (height - 4) + 1)
        for (offset, line) in lines.enumerated().dropFirst(first).prefix(height - 3) {
            let isSelected = offset == selected
            screen.text(line, row: top + 2 + offset - first, column: left + 1, width: width - 2, style: isSelected ? context.style(.selection) : style,
                        fill: isSelected)
        }
    }
}
