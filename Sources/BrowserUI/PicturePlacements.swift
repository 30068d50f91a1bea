import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Pictures drawn with a pixel protocol (sixel, kitty, iTerm2) live outside ncurses' idea of the
/// screen. This keeps the list of what is where, so each frame draws only new or moved pictures
/// and clears exactly the rectangles that were given up (no ghosts, no flicker).
final class PicturePlacements {
    struct Placement: Equatable {
        let id: String
        let row: Int
        let column: Int
        let rows: Int
        let columns: Int
        let bytes: [UInt8]

        static func == (a: Placement, b: Placement) -> Bool {
            a.id == b.id && a.row == b.row && a.column == b.column && a.rows == b.rows && a.columns == b.columns
        }
    }

    private(set) var shown: [Placement] = []
    private var wanted: [Placement] = []
    let mode: GraphicsMode
    /// Inside tmux with a pixel protocol the user chose: wrap each sequence in tmux's passthrough
    /// (`ESC P tmux; … ESC \`, every ESC doubled), which needs `set -g allow-passthrough on`.
    let tmuxPassthrough: Bool

    init(mode: GraphicsMode, tmuxPassthrough: Bool = false) {
        self.mode = mode
        self.tmuxPassthrough = tmuxPassthrough
    }

    func beginFrame() { wanted = [] }

    func place(_ placement: Placement) { wanted.append(placement) }

    /// Placements given up since the last frame: their lines must be repainted by ncurses.
    var removed: [Placement] { shown.filter { !wanted.contains($0) } }

    /// Writes the pictures after ncurses has refreshed the text. Lines repainted to clear a removed
    /// picture also wiped any other picture on them, so those are drawn again.
    func flush() {
        var output: [UInt8] = []
        let cleared = removed.flatMap { Array($0.row..<($0.row + $0.rows)) }
        let clearedRows = Set(cleared)
        let added = wanted.filter { placement in
            !shown.contains(placement) || (placement.row..<(placement.row + placement.rows)).contains { clearedRows.contains($0) }
        }
        if mode == .kitty && (!removed.isEmpty || !added.isEmpty) {
            // Kitty keeps images by itself: delete every placement, then draw the wanted ones.
            output += wrapped(Array("\u{1B}_Ga=d,d=a\u{1B}\\".utf8))
            for placement in wanted { output += sequence(placement) }
        } else {
            for placement in added { output += sequence(placement) }
        }
        shown = wanted
        if !output.isEmpty { FileDescriptorWriter.writeAll(output, to: 1) }
    }

    /// Clears every picture (leaving the browser, or a full repaint).
    func clearAll() {
        if mode == .kitty { _ = write(1, "\u{1B}_Ga=d,d=a\u{1B}\\", 10) }
        shown = []
    }

    private func sequence(_ placement: Placement) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(placement.row + 1);\(placement.column + 1)H".utf8) + wrapped(placement.bytes) + Array("\u{1B}8".utf8)
    }

    private func wrapped(_ bytes: [UInt8]) -> [UInt8] {
        guard tmuxPassthrough else { return bytes }
        return TmuxPassthrough.wrap(bytes)
    }
}
