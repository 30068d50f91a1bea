import BrowserCore

/// The footer while Quick Look edits: the edits this file offers and their keys, the question
/// Enter asks, or the saving under way.
enum QuickEditKeys {
    static func footer(_ edit: QuickEdit, name: String) -> String {
        switch edit.step {
        case .saving: return "saving…   Esc cancel (the original stays as it is)"
        case .askingHowToSave:
            return "save: r replace the original (kept in the Trash, U puts it back)   c or Enter a copy beside it   Esc back"
        case .choosing:
            let save = "Enter save…   Esc stop editing"
            switch edit.target {
            case .picture: return "r/l turn right/left   f mirror   " + save
            case .document: return "r/l turn this page   R/L every page   ↓/↑ page   " + save
            case .video: return "i/o start/end here   x clear   r/l turn   p play   ↓/↑ 5 s   " + save
            case .song: return "i/o start/end here   x clear   p play   ↓/↑ 5 s   " + save
            }
        }
    }
}
