import BrowserCore
import TerminalGraphics

/// The mouse over Quick Look's picture while an editor draws on it (a crop's rectangle, Markup's
/// marks): the cell under the pointer as fractions of the picture where the last frame drew it,
/// for the state's `RectangleEditor` or `MarkupEditor`. Nil when nothing is being drawn, so that
/// a click selects as ever.
enum PicturePointer {
    static func action(for input: KeyInput, state: BrowserState, placed: [String: CellRect]) -> BrowserAction? {
        guard let edit = state.quickEdit, edit.crop != nil || edit.markup != nil, edit.markup?.noteText == nil, edit.step == .choosing,
              let path = state.selectedPath, let picture = placed[path], picture.columns > 0, picture.rows > 0 else { return nil }
        func fractions(_ row: Int, _ column: Int) -> (x: Double, y: Double) {
            // The pointer is at the middle of its cell.
            (Double(column - picture.column) / Double(picture.columns) + 0.5 / Double(picture.columns),
             Double(row - picture.row) / Double(picture.rows) + 0.5 / Double(picture.rows))
        }
        let marking = edit.markup != nil
        switch input {
        case .click(let row, let column):
            let (x, y) = fractions(row, column)
            return .edit(marking ? .markup(.press(x: x, y: y)) : .rectangle(.press(x: x, y: y)))
        case .drag(let row, let column):
            let (x, y) = fractions(row, column)
            return .edit(marking ? .markup(.drag(x: x, y: y)) : .rectangle(.drag(x: x, y: y)))
        case .release(let row, let column):
            let (x, y) = fractions(row, column)
            return .edit(marking ? .markup(.release(x: x, y: y)) : .rectangle(.release(x: x, y: y)))
        default: return nil
        }
    }
}
