import BrowserCore
import FileSystemKit
import SystemKit
import TerminalGraphics
import ThumbnailKit

/// What every view draws with: the screen, the look, the pictures that have come back, and the
/// drawer that puts pictures on the terminal.
struct ViewContext {
    let screen: any Screen
    let theme: Theme
    let lsColors: LSColors
    let keys: KeyMap
    let store: PictureStore
    let drawer: PictureDrawer
    /// While an overlay of text is open, pictures are taken down rather than covering it.
    let hidesPictures: Bool

    func style(_ part: Theme.Part) -> Theme.Style { theme.style(part) }

    /// Draws the best picture known for the slot, if any; with `latestFrame`, a playing video's
    /// newest frame in when the one for this moment is not.
    func drawPicture(_ slot: PictureSlots.Slot?, latestFrame: Bool = false) {
        guard let slot, !hidesPictures else { return }
        let found = latestFrame ? store.picture(for: slot.key) : store.pictures[slot.key].map { (slot.key, $0) }
        guard let (key, representation) = found else { return }
        drawer.draw(representation, key: key, in: slot.rect, turn: slot.turn, overlay: slot.overlay)
    }

    /// The style of an entry's name: LS_COLORS first, then the theme's part for its kind.
    func nameStyle(_ entry: Entry) -> Theme.Style {
        if let style = lsColors.style(name: entry.name, isDirectory: entry.isDirectory, isSymbolicLink: entry.isSymbolicLink) { return style }
        if entry.isHidden { return style(.hidden) }
        if entry.isSymbolicLink { return style(.link) }
        return style(EntryLook.part(entry.kind))
    }
}

/// How an entry looks: its glyph and the theme part of its kind.
enum EntryLook {
    static func part(_ kind: ContentKind) -> Theme.Part {
        switch kind {
        case .folder: return .folder
        case .image, .rawImage: return .image
        case .video: return .video
        case .audio: return .audio
        case .pdf, .document: return .document
        case .text: return .text
        case .archive: return .archive
        case .unknown: return .file
        }
    }

    static func glyph(_ kind: ContentKind) -> String {
        switch kind {
        case .folder: return "▸"
        case .image, .rawImage: return "▣"
        case .video: return "▶"
        case .audio: return "♪"
        case .pdf, .document: return "▤"
        case .text: return "≡"
        case .archive: return "▦"
        case .unknown: return "·"
        }
    }
}
