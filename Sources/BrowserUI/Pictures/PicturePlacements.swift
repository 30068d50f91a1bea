import SystemKit
import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Pictures live outside ncurses' idea of the screen. This keeps the list of what is where, so
/// each frame writes only new or moved pictures and takes down exactly the ones given up (no
/// ghosts, no flicker), and, for terminals that keep pictures (kitty), which ones the terminal
/// already holds: those are placed again by id and never sent twice.
final class PicturePlacements {
    struct Placement: Equatable {
        let id: String
        let cells: CellRect
        let picture: TerminalPicture
        /// The slot the picture fills (file, side, cell size): its next picture replaces it.
        var slot = ""

        static func == (a: Placement, b: Placement) -> Bool { a.id == b.id && a.cells == b.cells }

        /// Another picture of the same slot (file, side, cell size) in exactly the same cells:
        /// drawing it covers every cell `other` drew.
        func replaces(_ other: Placement) -> Bool {
            !slot.isEmpty && slot == other.slot && cells == other.cells && id != other.id
        }
    }

    private(set) var shown: [Placement] = []
    private var wanted: [Placement] = []
    var driver: any GraphicsDriver
    /// Image ids the terminal holds, with the frame each was last wanted in.
    private(set) var transmitted: [UInt32: Int] = [:]
    private var frame = 0
    /// How many pictures the terminal is asked to keep; older ones not on screen are forgotten.
    let keepsTransmitted: Int
    /// Bytes written for pictures so far (`QLBROWSE_TRACE` reports them).
    private(set) var bytesWritten = 0

    init(driver: any GraphicsDriver, keepsTransmitted: Int = 256) {
        self.driver = driver
        self.keepsTransmitted = keepsTransmitted
    }

    func beginFrame() {
        wanted = []
        frame += 1
    }

    func place(id: String, picture: TerminalPicture, row: Int, column: Int, slot: String = "") {
        wanted.append(Placement(id: id, cells: CellRect(row: row, column: column, rows: picture.rows, columns: picture.columns), picture: picture, slot: slot))
    }

    /// Placements given up since the last frame. For drivers that draw into cells, their lines
    /// must be repainted by ncurses before `flush`; not those the next picture of the same place
    /// (a video's next frame, a better page) covers exactly: it is drawn over them, never on
    /// cells blanked first (issue 23: a playing video flickered blank in sixel terminals).
    var removed: [Placement] {
        shown.filter { placement in
            !wanted.contains(placement) && !(driver.drawsIntoCells && wanted.contains { $0.replaces(placement) })
        }
    }

    /// Where pictures drawn into cells were erased by command this frame.
    private var erasedCells: [CellRect] = []

    /// Takes down, before ncurses refreshes the text, the pictures given up that a repaint of
    /// their cells would not take down (inside tmux, in Konsole: `GraphicsDriver.erase`): text
    /// written over their cells in the same frame comes after, so the erase never wipes it.
    func eraseRemoved() {
        guard driver.drawsIntoCells else { return }
        var output: [UInt8] = []
        for placement in removed {
            let bytes = driver.erase(placement.picture, at: placement.cells)
            guard !bytes.isEmpty else { continue }
            erasedCells.append(placement.cells)
            output += bytes
        }
        write(output)
    }

    /// Writes the pictures after ncurses has refreshed the text.
    func flush() {
        var output: [UInt8] = []
        let removed = self.removed
        let added: [Placement]
        if driver.drawsIntoCells {
            // Lines repainted to take a picture down took down every other picture on them too.
            // Pictures erased by command (`eraseRemoved`) took down what overlapped them too.
            let erasedCells = self.erasedCells
            let clearedRows = Set(removed.flatMap { Array($0.cells.rowRange) })
            added = wanted.filter { placement in
                !shown.contains(placement) || placement.cells.rowRange.contains { clearedRows.contains($0) }
                    || erasedCells.contains { placement.cells.intersects($0) }
            }
        } else {
            // A picture placed again under the same id moves; only those gone for good are deleted.
            let stillWanted = Set(wanted.map(\.picture.imageID))
            for placement in removed where !stillWanted.contains(placement.picture.imageID) {
                output += driver.erase(placement.picture, at: placement.cells)
            }
            added = wanted.filter { !shown.contains($0) }
        }
        for placement in wanted where placement.picture.imageID != 0 { transmitted[placement.picture.imageID] = transmitted[placement.picture.imageID].map { _ in frame } }
        for placement in added {
            let imageID = placement.picture.imageID
            if imageID != 0 && transmitted[imageID] == nil {
                output += driver.transmit(placement.picture)
                transmitted[imageID] = frame
            }
            output += driver.show(placement.picture, row: placement.cells.row, column: placement.cells.column).bytes
        }
        output += forgetOldest()
        shown = wanted
        erasedCells = []
        write(output)
    }

    /// Over the budget, the terminal forgets every picture not on screen. Not only the oldest:
    /// kitty (0.26 and every release before `free_only_matched`) frees on any `d=I` every image
    /// that has no placement, so after one forget the terminal holds only what is placed now.
    private func forgetOldest() -> [UInt8] {
        guard transmitted.count > keepsTransmitted else { return [] }
        let placed = Set(wanted.map(\.picture.imageID))
        var output: [UInt8] = []
        for imageID in transmitted.keys.sorted() where !placed.contains(imageID) {
            output += driver.forget(imageID: imageID)
            transmitted[imageID] = nil
        }
        return output
    }

    /// Takes every picture down (a resize, Quick Look opening or closing, a program taking the
    /// terminal) and frees every picture the terminal holds: the screen is cleared next, and
    /// kitty frees on a clear (`ESC [ 2 J`) every image left with no placement, so a picture
    /// kept across it would be placed later under an id kitty dropped (issue 23: every picture
    /// gone after the first Quick Look). Freeing here makes every terminal hold the same
    /// (nothing), so what this records stays true in kitty and in Konsole, which would keep them.
    /// `freeing` says the terminal is handed back (quit): the placements go even when none is recorded.
    func clearAll(freeing: Bool = false) {
        var output = shown.isEmpty && !freeing ? [] : driver.eraseAll(freeing: false)
        for imageID in transmitted.keys.sorted() { output += driver.forget(imageID: imageID) }
        transmitted.removeAll()
        shown = []
        write(output)
    }

    /// The terminal no longer shows what was drawn into cells (its lines were all repainted):
    /// every picture wanted is drawn again at `flush`. A terminal that keeps sixels over the text
    /// or tmux is told to erase them first, or they would stay under the new frame.
    func forgetShown() {
        write(shown.flatMap { driver.erase($0.picture, at: $0.cells) })
        shown = []
    }

    /// Whether the terminal holds a picture under `imageID`.
    func holds(_ imageID: UInt32) -> Bool { transmitted[imageID] != nil }

    private func write(_ output: [UInt8]) {
        guard !output.isEmpty else { return }
        bytesWritten += output.count
        FileDescriptorWriter.writeAll(output, to: 1)
    }
}
