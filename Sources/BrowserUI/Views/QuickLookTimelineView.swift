import BrowserCore
import SystemKit

/// Under a video or song in Quick Look: the position bar with the time and the length, and for
/// a video the storyboard, frames from across the whole of it.
struct QuickLookTimelineView {
    let context: ViewContext

    func draw(_ state: BrowserState, slots: PictureSlots, barRow: Int) {
        let position = state.quickLook, columns = state.layout.columns
        let now = DisplayFormat.clock(position.seconds), length = position.duration.map(DisplayFormat.clock) ?? "?"
        let barWidth = max(10, columns - now.count - length.count - 6)
        let filled = position.duration.map { $0 > 0 ? Int(Double(barWidth - 1) * min(1, position.seconds / $0)) : 0 } ?? 0
        var bar = Array(String(repeating: "━", count: filled) + "●" + String(repeating: "─", count: max(0, barWidth - filled - 1)))
        // An edit's trim points: [ where the kept part starts, ] where it ends.
        if let edit = position.edit, let duration = position.duration, duration > 0 {
            let column = { (seconds: Double) in min(barWidth - 1, max(0, Int(Double(barWidth - 1) * min(1, seconds / duration)))) }
            if let start = edit.trimStart { bar[column(start)] = "[" }
            if let end = edit.trimEnd { bar[column(end)] = "]" }
        }
        context.screen.text(" \(now) \(String(bar)) \(length)", row: barRow, column: 0, width: columns, style: context.style(.text), fill: true)
        for slot in slots.storyboard { context.drawPicture(slot) }
    }
}
