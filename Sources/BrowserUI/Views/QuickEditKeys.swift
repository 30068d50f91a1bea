import BrowserCore

/// The footer while Quick Look edits: the edits this file offers and their keys, the question
/// Enter asks, or the saving under way.
enum QuickEditKeys {
    static func footer(_ edit: QuickEdit, name: String) -> String {
        switch edit.step {
        case .saving: return "saving…   Esc cancel (the original stays as it is)"
        case .askingLossy:
            return "this format cannot be cropped without encoding it again, which loses some quality: y go on   n or Esc back"
        case .askingHowToSave:
            return "save: r replace the original (kept in the Trash, U puts it back)   c or Enter a copy beside it   Esc back"
        case .choosing:
            let save = "Enter save…   Esc stop editing"
            if let crop = edit.crop {
                return "\(crop.rect.width)×\(crop.rect.height) px, ratio \(crop.ratio.name)   hjkl move  HJKL size  a ratio  mouse drags  u/^R undo/redo  x all  Enter save…  Esc leave"
            }
            switch edit.target {
            case .picture: return "r/l turn right/left   f mirror   c crop   " + save
            case .document: return "r/l turn this page   R/L every page   ↓/↑ page   " + save
            case .video: return "i/o start/end here   x clear   r/l turn   p play   ↓/↑ 5 s   " + save
            case .song: return "i/o start/end here   x clear   p play   ↓/↑ 5 s   " + save
            }
        }
    }
}
