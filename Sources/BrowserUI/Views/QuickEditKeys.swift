import BrowserCore
import SystemKit
import ThumbnailKit

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
            if let markup = edit.markup { return markupFooter(markup) }
            if let crop = edit.crop {
                return "\(crop.rect.width)×\(crop.rect.height) px, ratio \(crop.ratio.name)   hjkl move  HJKL size  a ratio  mouse drags  u/^R undo/redo  x all  Enter save…  Esc leave"
            }
            switch edit.target {
            case .picture: return "r/l turn right/left   f mirror   c crop   m markup   " + save
            case .document: return "r/l turn this page   R/L every page   ↓/↑ page   m markup   " + save
            case .video: return "i/o start/end here   x clear   r/l turn   p play   ↓/↑ 5 s   " + save
            case .song: return "i/o start/end here   x clear   p play   ↓/↑ 5 s   " + save
            }
        }
    }

    /// Markup's keys, the kind and colour drawn next first; or the note's text being typed.
    static func markupFooter(_ markup: MarkupEditor) -> String {
        if let note = markup.noteText {
            let text = Array(note.text)
            return "note: " + TerminalText.escaped(String(text[..<note.cursor]) + "▏" + String(text[note.cursor...])) + "   Enter add   Esc drop"
        }
        let kinds = zip(BrowserState.markKeys, Mark.Kind.allCases).map { key, kind in
            kind == markup.kind ? "[\(key) \(kind.rawValue)]" : "\(key) \(kind.rawValue)"
        }
        // What Enter and Esc do now comes first: the end of a narrow footer is cut.
        let keys = markup.placing != nil ? "Enter add the box  Esc drop it" : "Enter save…  Esc leave"
        return keys + "   " + kinds.joined(separator: " ") + "   c \(markup.colour.rawValue)   drag draws, hjkl/HJKL place a box   u/^R undo/redo"
    }
}
