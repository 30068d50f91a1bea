import BrowserCore
import CNcurses
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The ncurses screen. Touched from the UI thread only; everything else talks to the event loop.
final class CursesScreen: Screen {
    private(set) var rows = 24
    private(set) var columns = 80
    private(set) var colors = 0
    let useColor: Bool
    private var pairs: [Int64: Int32] = [:]
    private var nextPair: Int32 = 1

    init(useColor: Bool) {
        self.useColor = useColor
    }

    /// Takes over the terminal. A `TERM` with no terminfo entry here (what `ssh` from kitty gives
    /// on a server without kitty's terminfo) falls back to one that exists; the returned note says
    /// which, for the log and the status line.
    /// `preferring`: a terminfo entry with the colours of the terminal that draws (Debian's xterm
    /// runs with TERM=xterm, 8 colours, and has 256; tmux's `screen` accepts 256; tmux maps
    /// 256 to 8 for mlterm), tried first.
    @discardableResult
    func start(preferring entry: String? = nil) -> String? {
        // ncurses is opened here, at the browser's start (the short calls never load it).
        if let why = CNcurses_library_error() {
            FileDescriptorWriter.writeAll(Array("qlbrowse: \(String(cString: why)) (install libncursesw6)\n".utf8), to: 2)
            exit(1)
        }
        _ = CNcurses_set_locale()
        setenv("ESCDELAY", "25", 1)
        let note = entry.map { CNcurses_start($0) == 1 } == true ? nil : startCurses()
        cbreak()
        noecho()
        nonl()
        intrflush(CNcurses_stdscr(), false)
        keypad(CNcurses_stdscr(), true)
        nodelay(CNcurses_stdscr(), true)
        curs_set(0)
        if useColor && has_colors() {
            start_color()
            use_default_colors()
            colors = Int(CNcurses_colors())
        }
        _ = CNcurses_mouse_all()
        // Focus coming back (a tmux window switched back) repaints: pictures sent through tmux's
        // passthrough are not in its grid and are gone after it redraws.
        CNcurses_report_focus(1)
        updateSize()
        return note
    }

    private func startCurses() -> String? {
        if CNcurses_start(nil) == 1 { return nil }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        for fallback in TerminfoFallback.candidates(for: term) where CNcurses_start(fallback) == 1 {
            // Programs started from the browser (a pager, an editor) get a TERM that works too.
            setenv("TERM", fallback, 1)
            return "TERM=\(TerminalText.escaped(term)) has no terminfo entry here; using \(fallback)"
        }
        // Not even vt100: ncurses cannot run; say so and leave.
        FileDescriptorWriter.writeAll(Array("qlbrowse: no terminfo entry for TERM=\(TerminalText.escaped(term)) nor any fallback (install ncurses-base)\n".utf8), to: 2)
        exit(1)
    }

    func stop() {
        CNcurses_report_focus(0)
        endwin()
    }

    func updateSize() {
        rows = Int(CNcurses_lines())
        columns = Int(CNcurses_cols())
    }

    /// Leaves curses mode for a program that needs the terminal (a pager, an editor).
    func suspend() {
        def_prog_mode()
        endwin()
    }

    func resume() {
        reset_prog_mode()
        clearok(CNcurses_stdscr(), true)
        refresh()
    }

    func erase() { werase(CNcurses_stdscr()) }

    func refresh() { wrefresh(CNcurses_stdscr()) }

    /// Makes ncurses repaint these lines in full at the next refresh (they held a picture it does not know about).
    func invalidate(top: Int, count: Int) {
        guard count > 0 else { return }
        wredrawln(CNcurses_stdscr(), Int32(top), Int32(count))
    }

    func clearAll() { clearok(CNcurses_stdscr(), true) }

    /// Whether the next refresh may scroll lines: a row drawn now whose characters the terminal
    /// shows on another row (ncurses matches lines by their characters and moves them with a
    /// scroll region). The terminal moves the pictures over scrolled lines along, to rows no
    /// repaint of ncurses' own clears (issue 23: the filter left cut copies of icons; kitty 0.26
    /// frees pictures without a placement on a scroll). Blank rows are not counted: they match
    /// everywhere and ncurses does not start a scroll from them.
    func linesMayMove() -> Bool {
        let blank = CNcurses_blank_hash(Int32(columns))
        var shownAt: [UInt: Set<Int>] = [:]
        for row in 0..<rows { shownAt[CNcurses_row_hash(1, Int32(row)), default: []].insert(row) }
        for row in 0..<rows {
            let drawn = CNcurses_row_hash(0, Int32(row))
            guard drawn != blank, let places = shownAt[drawn], !places.contains(row) else { continue }
            return true
        }
        return false
    }

    func cellWidth(_ scalar: UInt32) -> Int { max(0, Int(CNcurses_char_width(scalar))) }

    @discardableResult
    func text(_ string: String, row: Int, column: Int, width: Int, style: Theme.Style, fill: Bool, ellipsis: Bool) -> Int {
        guard row >= 0, row < rows, column < columns, width > 0 else { return 0 }
        let attributes = self.attributes(style)
        let pair = self.pair(style)
        let layout = CellText.layout(string, column: column, width: width, columns: columns, fill: fill, ellipsis: ellipsis) {
            Int(CNcurses_char_width($0))
        }
        for (scalar, x) in layout.cells { CNcurses_put(Int32(row), Int32(x), scalar, attributes, pair) }
        for x in layout.blanks { CNcurses_put(Int32(row), Int32(x), 0x20, attributes, pair) }
        return layout.used
    }

    /// Puts keys typed before the screen started (read by the terminal probe) back in front of
    /// the input, so the next `readKey` calls return them first, in order.
    func giveBack(_ keys: [UInt8]) {
        // ncurses keeps a small queue of keys given back; more than a handful typed ahead is not a case.
        for byte in keys.prefix(64).reversed() { ungetch(Int32(byte)) }
    }

    /// Reads a key: a character, a function key code, or nil when none is waiting.
    func readKey() -> KeyInput? {
        var value: UInt32 = 0
        let status = CNcurses_get(&value)
        if status == ERR { return nil }
        if status == KEY_CODE_YES {
            if Int32(value) == CNcurses_key_mouse() {
                var y: Int32 = 0, x: Int32 = 0
                switch CNcurses_mouse(&y, &x) {
                case 1: return .wheel(-1)
                case 2: return .wheel(1)
                case 3: return .click(row: Int(y), column: Int(x))
                case 4: return .release(row: Int(y), column: Int(x))
                case 5: return .drag(row: Int(y), column: Int(x))
                default: return nil
                }
            }
            if Int32(value) == CNcurses_key_resize() { return .resize }
            if Int32(value) == CNcurses_key_focus_in() { return .focusIn }
            return Self.specialKeys[Int32(value)].map { .key(.special($0)) }
        }
        return .key(.character(value))
    }

    /// The curses codes of the keys that have no character.
    private static let specialKeys: [Int32: KeyPress.SpecialKey] = [
        KEY_UP: .up, KEY_DOWN: .down, KEY_LEFT: .left, KEY_RIGHT: .right, KEY_PPAGE: .pageUp, KEY_NPAGE: .pageDown,
        KEY_HOME: .home, KEY_END: .end, KEY_BACKSPACE: .backspace, KEY_ENTER: .enter,
    ]

    private func attributes(_ style: Theme.Style) -> attr_t {
        var attributes: attr_t = 0
        if style.bold { attributes |= CNcurses_bold() }
        if style.reverse || ((!useColor || colors == 0) && style.background >= 0) { attributes |= CNcurses_reverse() }
        if style.underline { attributes |= CNcurses_underline() }
        if style.dim { attributes |= CNcurses_dim() }
        return attributes
    }

    private func pair(_ style: Theme.Style) -> Int32 {
        guard useColor, colors > 0 else { return 0 }
        let foreground = ColorPalette.nearest(style.foreground, available: colors, foreground: true)
        let background = ColorPalette.nearest(style.background, available: colors)
        if foreground == -1 && background == -1 { return 0 }
        let key = Int64(foreground + 1) << 16 | Int64(background + 1)
        if let existing = pairs[key] { return existing }
        if nextPair >= CNcurses_color_pairs() - 1 {
            pairs.removeAll()
            nextPair = 1
        }
        let number = nextPair
        nextPair += 1
        init_extended_pair(number, foreground, background)
        pairs[key] = number
        return number
    }
}
