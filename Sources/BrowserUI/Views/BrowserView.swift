import BrowserCore
import SystemKit
import TerminalGraphics
import ThumbnailKit

/// Draws a `BrowserState` a frame at a time: the text parts first (header, list or grid,
/// status line, overlay), then the pictures, written by the graphics driver after the text.
/// It reads the state and never changes it.
final class BrowserView {
    let screen: any Screen
    let theme: Theme
    let lsColors: LSColors
    let keys: KeyMap
    let store = PictureStore()
    let drawer: PictureDrawer
    /// Where a folder's files are when not on this computer ("remote:nas"), for the status line:
    /// each tab's own (the router's label for the folder shown).
    let placeLabel: (String) -> String?
    private var wasQuickLook = false

    init(screen: any Screen, theme: Theme, lsColors: LSColors, keys: KeyMap, drawer: PictureDrawer, placeLabel: @escaping (String) -> String? = { _ in nil }) {
        self.placeLabel = placeLabel
        self.screen = screen
        self.theme = theme
        self.lsColors = lsColors
        self.keys = keys
        self.drawer = drawer
    }

    var placements: PicturePlacements { drawer.placements }

    /// A picture came back: kept, and when that put the store over its budget, the encodings of
    /// what it let go are dropped too.
    func receive(_ representation: Representation, for key: PictureKey) {
        guard store.store(representation, for: key) else { return }
        if store.evictIfNeeded() { drawer.forgetEncodings() }
    }

    /// The file at `path` changed (an edit saved over it): what was fetched and encoded of it goes,
    /// and terminals that keep pictures are sent the new ones.
    func forgetPictures(of path: String) {
        store.forget(path: path)
        drawer.forget(path: path)
    }

    func draw(_ state: BrowserState) {
        // Quick Look opening or closing repaints everything: its pictures and the browser's overlap.
        let quickLook = state.overlay == .quickLook
        if quickLook != wasQuickLook {
            placements.clearAll()
            screen.clearAll()
            wasQuickLook = quickLook
        }
        drawer.beginFrame()
        defer { drawer.endFrame() }
        let context = ViewContext(screen: screen, theme: theme, lsColors: lsColors, keys: keys, store: store, drawer: drawer,
                                  hidesPictures: state.overlay?.coversPictures ?? (state.mode == .finding))
        screen.erase()
        if quickLook {
            QuickLookView(context: context).draw(state)
        } else {
            HeaderView(context: context).draw(state)
            if state.view == .grid { GridView(context: context).draw(state) } else { ListView(context: context).draw(state) }
            StatusLineView(context: context, graphics: (drawer.driver?.mode ?? .off).rawValue, place: placeLabel(state.folder)).draw(state)
            if let overlay = state.overlay { OverlayView(context: context).draw(overlay, state: state) }
            if state.mode == .finding, let search = state.find { FindView(context: context).draw(search, layout: state.layout) }
        }
        // A line that moved would be scrolled by ncurses, and the terminal would move the
        // pictures over it along, to rows no repaint clears (sixel ghosts after typing in the
        // filter; kitty 0.26 frees every picture without a placement on a scroll). With
        // pictures up, every line is repainted instead, which leaves ncurses nothing to scroll;
        // pictures drawn into cells are drawn again.
        placements.eraseRemoved()
        if !placements.shown.isEmpty && screen.linesMayMove() {
            screen.invalidate(top: 0, count: screen.rows)
            if placements.driver.drawsIntoCells { placements.forgetShown() }
        }
        screen.refresh()
        let removed = placements.removed
        if !removed.isEmpty && placements.driver.drawsIntoCells {
            for placement in removed { screen.invalidate(top: placement.cells.row, count: placement.cells.rows) }
            screen.refresh()
        }
        placements.flush()
    }

    /// Everything is drawn again at the next frame, pictures included (Ctrl-L, focus back, a resize).
    func repaintAll() {
        placements.clearAll()
        screen.clearAll()
    }
}
