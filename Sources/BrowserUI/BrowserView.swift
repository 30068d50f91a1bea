import BrowserCore
import FileSystemKit
import SystemKit
import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Draws a `BrowserState`: header, list or grid, preview pane, overlays, status line, and the
/// pictures (written by the graphics driver after the text).
final class BrowserView {
    let screen: CursesScreen
    let theme: Theme
    let lsColors: LSColors
    /// How pictures are drawn; nil draws none (`--graphics none`).
    private(set) var driver: (any GraphicsDriver)?
    private(set) var cell: CellSize
    private let keys: KeyMap
    private var spinnerFrame = 0
    let placements: PicturePlacements

    private var pictures: [PictureKey: Representation] = [:]
    private var failures: [PictureKey: String] = [:]
    private var texts: [String: [String]] = [:]
    /// Pictures rendered for the driver, by encoding id (file, size, cell rectangle, representation).
    private var encoded: [String: TerminalPicture] = [:]
    private var encodedBytes = 0
    /// The image id each encoding is kept under by terminals that keep pictures (kitty): stable,
    /// so that a picture encoded again after eviction is not sent again.
    private var imageIDs: [String: UInt32] = [:]
    private var imageSerial = 0
    private let encoder: PictureEncoder
    /// The encodings this frame drew or waits for, for the encoder.
    private var wantedEncodings: Set<String> = []
    /// Encodings asked of the encoder and not back yet: not asked twice (one done and on its way
    /// through the inbox would otherwise be encoded again by the next frame).
    private var pendingEncodings: Set<String> = []
    /// Per picture slot (file, size, cell rectangle): the id of the encoding last drawn there,
    /// drawn again while a better representation is being encoded.
    private var lastDrawn: [String: String] = [:]
    private var lastWanted: Set<PictureKey> = []

    init(screen: CursesScreen, theme: Theme, lsColors: LSColors, driver: (any GraphicsDriver)?, cell: CellSize,
         encoder: PictureEncoder, keys: KeyMap = .standard) {
        self.keys = keys
        self.encoder = encoder
        self.screen = screen
        self.theme = theme
        self.lsColors = lsColors
        self.driver = driver
        self.cell = cell
        self.placements = PicturePlacements(driver: driver ?? SymbolsDriver(cell: cell, colors: 256))
    }

    /// Draws pictures with `driver` from now on (at start, and after a resize, when the cell size
    /// or the tmux pane may have changed): what was rendered for the old one is dropped.
    func use(_ driver: (any GraphicsDriver)?, cell: CellSize) {
        self.driver = driver
        self.cell = cell
        if let driver { placements.driver = driver }
        encoded.removeAll()
        encodedBytes = 0
        pendingEncodings.removeAll()
        lastDrawn.removeAll()
    }

    // MARK: Results

    func store(_ representation: Representation, for key: PictureKey) {
        if let old = pictures[key], old.type > representation.type { return }
        pictures[key] = representation
        failures[key] = nil
        evictIfNeeded()
    }

    func storeFailure(_ reason: String, for key: PictureKey) { failures[key] = reason }
    func storeText(_ lines: [String], for path: String) { texts[path] = lines }

    func storeEncoded(_ picture: TerminalPicture, id: String) {
        // Over the limit, what the last frame neither drew nor waited for goes.
        if encoded.count > 400 || encodedBytes > Self.encodedBudgetBytes {
            let onScreen = wantedEncodings.union(lastDrawn.values)
            encoded = encoded.filter { onScreen.contains($0.key) }
            encodedBytes = encoded.values.reduce(0) { $0 + $1.byteCount }
        }
        encoded[id] = picture
        encodedBytes += picture.byteCount
        pendingEncodings.remove(id)
    }

    static let encodedBudgetBytes = 48 << 20
    func hasText(for path: String) -> Bool { texts[path] != nil }

    /// Keeps decoded pictures within a memory budget: when over it, everything not on screen (or
    /// fetched ahead) goes; it comes back from the thumbnail cache if needed again.
    private func evictIfNeeded() {
        let bytes = pictures.values.reduce(0) { $0 + $1.image.pixels.count }
        guard pictures.count > 600 || bytes > Self.pictureBudgetBytes else { return }
        for key in pictures.keys where !lastWanted.contains(key) { pictures[key] = nil; failures[key] = nil }
        encoded.removeAll()
        encodedBytes = 0
        lastDrawn.removeAll()
    }

    static let pictureBudgetBytes = 160 << 20

    // MARK: What to fetch

    /// The pictures the current screen needs (and its neighbours, fetched ahead), and those already complete.
    func wantedPictures(for state: BrowserState) -> ([PictureKey], Set<PictureKey>) {
        var keys: [PictureKey] = []
        let layout = state.layout
        func key(_ index: Int, side: Int) -> PictureKey? {
            guard state.entries.indices.contains(index) else { return nil }
            let entry = state.entries[index]
            let iconOnly = entry.isDirectory || entry.kind == .archive
            return PictureKey(path: entry.path(in: state.folder), side: side, iconOnly: iconOnly)
        }
        if state.overlay == .quickLook {
            let side = cell.thumbnailSide(columns: layout.columns, rows: layout.rows - 3)
            for offset in [0, 1, -1] { if let k = key(state.cursor + offset, side: side) { keys.append(k) } }
        } else if state.view == .grid {
            let side = cell.thumbnailSide(columns: layout.tileWidth - 2, rows: layout.tileHeight - 2)
            let range = state.visibleRange
            for index in range { if let k = key(index, side: side) { keys.append(k) } }
            let ahead = layout.gridColumns * 2
            for index in range.upperBound..<(range.upperBound + ahead) { if let k = key(index, side: side) { keys.append(k) } }
        } else if layout.hasPreview {
            let side = cell.thumbnailSide(columns: layout.previewWidth - 2, rows: layout.bodyRows - Self.infoRows(layout))
            for offset in [0, 1, -1, 2] { if let k = key(state.cursor + offset, side: side) { keys.append(k) } }
        }
        lastWanted = Set(keys)
        let done = Set(keys.filter { (pictures[$0]?.type == .thumbnail) || ($0.iconOnly && pictures[$0] != nil) || failures[$0] != nil })
        return (keys, done)
    }

    /// Rows under the preview picture for the name, type, size, date and the decoder's facts.
    static func infoRows(_ layout: ScreenLayout) -> Int { min(11, max(5, layout.bodyRows / 3)) }


    // MARK: Drawing

    /// While an overlay of text is open, pictures are taken down rather than covering it (kitty's
    /// float over text, and the others would be cut by the box and not mended when it closes).
    private var hidePictures = false

    func draw(_ state: BrowserState) {
        placements.beginFrame()
        wantedEncodings = []
        defer {
            // What this frame did not want, the encoder drops: asked again when wanted again.
            pendingEncodings.formIntersection(wantedEncodings)
            encoder.keepOnly(wantedEncodings)
        }
        hidePictures = state.overlay != nil && state.overlay != .quickLook
        screen.erase()
        let layout = state.layout
        if state.overlay == .quickLook {
            drawQuickLook(state)
        } else {
            drawHeader(state)
            if state.view == .grid { drawGrid(state) } else { drawList(state) }
            drawStatus(state)
            if state.overlay == .help { drawHelp(layout) }
            if state.overlay == .volumes { drawVolumes(state) }
            if state.overlay == .jobs { drawJobs(state) }
            if case .confirmBatch(let folder) = state.overlay { drawConfirmBatch(folder, layout: layout) }
            if case .confirmDelete(let paths) = state.overlay {
                let names = paths.prefix(12).map { "  " + TerminalText.escaped($0) } + (paths.count > 12 ? ["  … and \(paths.count - 12) more"] : [])
                drawBox(title: " Delete for good? This cannot be undone (d moves to the trash instead)", lines: names + ["", "y or Enter deletes · n or Esc keeps them"],
                        selected: nil, layout: layout)
            }
            if case .conflict(_, let conflict) = state.overlay {
                drawBox(title: " This name is taken", lines: [
                    TerminalText.escaped(conflict.destination) + (conflict.destinationIsFolder ? " (a folder)" : ""),
                    "from " + TerminalText.escaped(conflict.source), "",
                    "o  overwrite" + (conflict.destinationIsFolder ? " (merge the folders)" : ""),
                    "s  skip", "k  keep both (a numbered name)", "O S K  the same for all the rest",
                ], selected: nil, layout: layout)
            }
        }
        screen.refresh()
        let removed = placements.removed
        if !removed.isEmpty && placements.driver.drawsIntoCells {
            for placement in removed { screen.invalidate(top: placement.cells.row, count: placement.cells.rows) }
            screen.refresh()
        }
        placements.flush()
    }

    private func drawHeader(_ state: BrowserState) {
        let style = theme.style("header")
        var title = " " + TerminalText.escaped(state.folder)
        if !state.filter.isEmpty || state.isTypingFilter { title += "   /" + TerminalText.escaped(state.filter) + (state.isTypingFilter ? "▏" : "") }
        screen.text(title, row: 0, column: 0, width: state.layout.columns, style: style, fill: true)
        // Volume notices sit at the header's right end: a spinner while a volume is awaited, a
        // banner when one went away.
        var notice: (String, String)?
        if let volume = state.waitingFor {
            spinnerFrame += 1
            let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")[spinnerFrame % 10]
            notice = (" \(spinner) waiting for \(TerminalText.escaped(volume))… (Esc goes back) ", "message")
        } else if let banner = state.banner {
            notice = (" \(TerminalText.escaped(banner)) ", "error")
        }
        if let (text, part) = notice {
            let width = min(text.count, state.layout.columns / 2)
            screen.text(text, row: 0, column: state.layout.columns - width, width: width, style: theme.style(part).on(style), fill: true)
        }
    }

    /// A box in the middle of the screen with a title bar and lines; the selected line highlighted.
    private func drawBox(title: String, lines: [String], selected: Int?, layout: ScreenLayout, minimumWidth: Int = 60) {
        let width = min(layout.columns - 2, max(minimumWidth, (lines.map(\.count).max() ?? 40) + 4))
        let height = min(layout.rows - 2, lines.count + 4)
        let top = max(1, (layout.rows - height) / 2), left = max(0, (layout.columns - width) / 2)
        let style = theme.style("help")
        screen.fill(row: top, column: left, width: width, height: height, style: style)
        screen.text(title, row: top, column: left, width: width, style: theme.style("header"), fill: true)
        let first = max(0, (selected ?? 0) - (height - 4) + 1)
        for (offset, line) in lines.enumerated().dropFirst(first).prefix(height - 3) {
            let isSelected = offset == selected
            screen.text(line, row: top + 2 + offset - first, column: left + 1, width: width - 2, style: isSelected ? theme.style("selection") : style, fill: isSelected)
        }
    }

    private func drawJobs(_ state: BrowserState) {
        let lines = state.jobs.isEmpty ? ["No jobs yet: T on a folder thumbnails it in the background."] : state.jobs.map(Self.jobLine)
        drawBox(title: " Jobs   c cancels · space pauses a copy · Enter resumes stopped thumbnailing · Esc closes", lines: lines,
                selected: state.jobs.isEmpty ? nil : state.jobCursor, layout: state.layout, minimumWidth: 70)
    }

    private func drawConfirmBatch(_ folder: String, layout: ScreenLayout) {
        drawBox(title: " Thumbnail this folder?", lines: [
            TerminalText.escaped(folder), "",
            "Enter   into your thumbnail cache",
            "s       also into .sh_thumbnails beside the files (other machines see them)",
            "Esc     cancel",
        ], selected: nil, layout: layout)
    }

    /// A job in one line: bar, counts, rate, time left, or how it ended.
    static func jobLine(_ job: JobStatus) -> String {
        if job.kind != "thumbnails" { return fileJobLine(job) }
        let name = TerminalText.escaped(job.folder).padding(28)
        let bar = job.fraction.map { fraction -> String in
            let filled = Int((fraction * 20).rounded())
            return "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: 20 - filled) + "] " + String(Int(fraction * 100)) + "%"
        } ?? "[ finding files…     ]"
        let counts = "\(job.processed)/\(job.total.map(String.init) ?? "?")"
        switch job.phase {
        case .walking, .running:
            let left = job.secondsLeft.map { " ETA " + Self.duration($0) } ?? ""
            return "\(name) \(bar) \(counts)  \(String(format1: job.rate)) files/s\(left)"
        case .finished: return "\(name) done: \(job.report)"
        case .cancelled: return "\(name) cancelled: \(job.report)"
        case .interrupted(let reason): return "\(name) stopped (\(TerminalText.escaped(reason))): \(job.report)"
        }
    }

    /// A copy, move, trash or delete: bytes and items, rate, time left, pause; or how it ended.
    static func fileJobLine(_ job: JobStatus) -> String {
        let title = (job.kind + " → " + TerminalText.escaped(job.folder)).padding(30)
        switch job.phase {
        case .walking, .running:
            let fraction = job.fraction ?? 0
            let filled = Int((fraction * 20).rounded())
            let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: 20 - filled) + "] \(Int(fraction * 100))%"
            let bytes = job.bytesTotal > 0 ? "  \(humanSize(Int(job.bytesDone)))/\(humanSize(Int(job.bytesTotal)))  \(humanSize(Int(job.rate)))/s" : ""
            let left = job.secondsLeft.map { " ETA " + duration($0) } ?? ""
            return "\(title) \(bar)\(bytes)\(left)  \(job.generated)/\(job.total ?? 0) items" + (job.isPaused ? "  paused" : "")
        case .finished: return "\(title) done: \(job.report)"
        case .cancelled: return "\(title) cancelled: \(job.report)"
        case .interrupted(let reason): return "\(title) stopped: \(job.report) (\(TerminalText.escaped(reason)))"
        }
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600 ? "\(whole / 3600)h\(whole % 3600 / 60)m" : whole >= 60 ? "\(whole / 60)m\(whole % 60)s" : "\(whole)s"
    }

    private func drawVolumes(_ state: BrowserState) {
        let layout = state.layout
        var lines: [(String, Bool)] = []
        for (index, status) in state.volumes.enumerated() {
            let volume = status.volume
            let size = status.totalBytes.map { "\(Self.humanSize(Int(clamping: status.freeBytes ?? 0))) free of \(Self.humanSize(Int(clamping: $0)))" } ?? ""
            let health = status.isResponding ? "" : "  not responding"
            let flags = volume.isReadOnly ? " ro" : ""
            let line = String(volume.kind.rawValue.padding(10)) + TerminalText.escaped(volume.label).padding(18) + " "
                + TerminalText.escaped(volume.mountPoint).padding(30) + " " + volume.fsType.padding(13) + flags + " " + size + health
            lines.append((line, index == state.volumeCursor))
        }
        if lines.isEmpty { lines = [("(no volumes found in /proc/self/mountinfo)", false)] }
        if state.volumes.indices.contains(state.volumeCursor) {
            let selected = state.volumes[state.volumeCursor].volume
            lines.append(("", false))
            lines.append(("\(TerminalText.escaped(selected.label)): " + (state.capabilities[selected.mountPoint]?.summary ?? "…"), false))
        }
        let width = min(layout.columns - 2, max(60, (lines.map(\.0.count).max() ?? 40) + 4))
        let height = min(layout.rows - 2, lines.count + 4)
        let top = max(1, (layout.rows - height) / 2), left = max(0, (layout.columns - width) / 2)
        let style = theme.style("help")
        screen.fill(row: top, column: left, width: width, height: height, style: style)
        screen.text(" Volumes   Enter opens · Esc closes", row: top, column: left, width: width, style: theme.style("header"), fill: true)
        let first = max(0, state.volumeCursor - (height - 4) + 1)
        for (offset, (line, selected)) in lines.dropFirst(first).prefix(height - 3).enumerated() {
            screen.text(line, row: top + 2 + offset, column: left + 1, width: width - 2, style: selected ? theme.style("selection") : style, fill: selected)
        }
    }

    private func drawList(_ state: BrowserState) {
        let layout = state.layout
        let width = layout.listWidth
        let sizeWidth = 7, dateWidth = width >= 50 ? 17 : 0
        for index in state.visibleRange {
            let entry = state.entries[index]
            let row = layout.bodyTop + index - state.top
            let selected = index == state.cursor
            let base = selected ? theme.style("selection") : nameStyle(entry)
            screen.text("", row: row, column: 0, width: width, style: selected ? base : Theme.Style(), fill: true)
            if state.marked.contains(entry.nameBytes) {
                screen.text("+", row: row, column: 0, width: 1, style: theme.style("message"))
            }
            let glyph = Self.glyph(entry)
            screen.text(glyph, row: row, column: 1, width: 2, style: selected ? base : theme.style(styleName(entry.kind)))
            let name = (state.showExtensions ? entry.displayName : entry.displayNameWithoutExtension) + (entry.isDirectory ? "/" : "")
            let nameWidth = width - 3 - sizeWidth - dateWidth - 2
            screen.text(name, row: row, column: 3, width: nameWidth, style: base, ellipsis: true)
            let size = entry.isDirectory ? "" : Self.humanSize(entry.size)
            screen.text(String(repeating: " ", count: max(0, sizeWidth - size.count)) + size, row: row, column: width - sizeWidth - dateWidth - 1,
                        width: sizeWidth, style: selected ? base : theme.style("size"))
            if dateWidth > 0 {
                screen.text(Self.date(entry.modified), row: row, column: width - dateWidth, width: dateWidth - 1, style: selected ? base : theme.style("date"))
            }
        }
        if state.entries.isEmpty {
            let text = state.listingError ?? (state.listingComplete ? (state.filter.isEmpty ? "(empty folder)" : "(nothing matches)") : "reading…")
            screen.text(text, row: layout.bodyTop, column: 2, width: width - 2, style: theme.style(state.listingError == nil ? "hidden" : "error"))
        }
        if layout.hasPreview {
            for row in layout.bodyTop..<(layout.bodyTop + layout.bodyRows) { screen.text("│", row: row, column: layout.listWidth, width: 1, style: theme.style("border")) }
            drawPreview(state)
        }
    }

    private func drawPreview(_ state: BrowserState) {
        let layout = state.layout
        guard let entry = state.selected, let path = state.selectedPath else { return }
        let left = layout.previewLeft + 1, width = layout.previewWidth - 2
        let pictureRows = max(1, layout.bodyRows - Self.infoRows(layout))
        let side = cell.thumbnailSide(columns: width, rows: pictureRows)
        let key = PictureKey(path: path, side: side, iconOnly: entry.isDirectory || entry.kind == .archive)
        drawPicture(key, row: layout.bodyTop, column: left, columns: width, rows: pictureRows)
        var row = layout.bodyTop + pictureRows + 1
        let info = theme.style("text")
        screen.text(entry.displayName, row: row, column: left, width: width, style: theme.style("title"), ellipsis: true); row += 1
        let representation = pictures[key]
        let type = representation?.contentType.identifier ?? (entry.isDirectory ? "folder" : ContentTypeTable.type(forFileName: entry.name)?.identifier ?? entry.kind.rawValue)
        screen.text(type + (entry.isSymbolicLink ? "  (link)" : ""), row: row, column: left, width: width, style: info); row += 1
        if !entry.isDirectory { screen.text("\(Self.humanSize(entry.size))  (\(entry.size) bytes)", row: row, column: left, width: width, style: info); row += 1 }
        screen.text("modified " + Self.date(entry.modified), row: row, column: left, width: width, style: info); row += 1
        for fact in representation?.facts ?? [] where row < layout.bodyTop + layout.bodyRows - 1 {
            screen.text("\(fact.label) \(TerminalText.escaped(fact.value))", row: row, column: left, width: width, style: info)
            row += 1
        }
        if let failure = failures[key] {
            screen.text(TerminalText.escaped(failure), row: row, column: left, width: width, style: theme.style("error"))
        } else if let representation, representation.type != .icon {
            let quality = representation.type == .thumbnail ? "" : " (preview)"
            screen.text("picture \(representation.image.width)×\(representation.image.height) from \(representation.source)\(quality)", row: row, column: left, width: width, style: theme.style("hidden"))
        }
    }

    private func drawGrid(_ state: BrowserState) {
        let layout = state.layout
        let side = cell.thumbnailSide(columns: layout.tileWidth - 2, rows: layout.tileHeight - 2)
        for index in state.visibleRange {
            let entry = state.entries[index]
            let origin = layout.tileOrigin(index: index, firstRow: state.top)
            let key = PictureKey(path: entry.path(in: state.folder), side: side, iconOnly: entry.isDirectory || entry.kind == .archive)
            drawPicture(key, row: origin.row, column: origin.column + 1, columns: layout.tileWidth - 2, rows: layout.tileHeight - 2)
            let selected = index == state.cursor
            let name = state.showExtensions ? entry.displayName : entry.displayNameWithoutExtension
            let clipped = Self.clip(name, to: layout.tileWidth - 2)
            let pad = max(0, (layout.tileWidth - 2 - clipped.count) / 2)
            let style = selected ? theme.style("selection") : nameStyle(entry)
            if selected { screen.text("", row: origin.row + layout.tileHeight - 2, column: origin.column, width: layout.tileWidth - 1, style: style, fill: true) }
            screen.text(clipped, row: origin.row + layout.tileHeight - 2, column: origin.column + 1 + pad, width: layout.tileWidth - 2, style: style)
        }
        if state.entries.isEmpty {
            screen.text(state.listingError ?? (state.listingComplete ? "(empty folder)" : "reading…"), row: layout.bodyTop, column: 2, width: layout.columns - 2, style: theme.style("hidden"))
        }
    }

    private func drawQuickLook(_ state: BrowserState) {
        let layout = state.layout
        guard let entry = state.selected, let path = state.selectedPath else { return }
        screen.fill(row: 0, column: 0, width: layout.columns, height: layout.rows, style: Theme.Style())
        let title = " \(entry.displayName)   \(state.cursor + 1)/\(state.entries.count)"
        screen.text(title, row: 0, column: 0, width: layout.columns, style: theme.style("header"), fill: true)
        let area = layout.rows - 3
        if entry.kind == .text, !entry.isDirectory {
            let lines = texts[path] ?? ["reading…"]
            for (offset, line) in lines.prefix(area).enumerated() {
                screen.text(line, row: 1 + offset, column: 1, width: layout.columns - 2, style: theme.style("text"))
            }
        } else {
            let side = cell.thumbnailSide(columns: layout.columns, rows: area)
            drawPicture(PictureKey(path: path, side: side, iconOnly: entry.isDirectory || entry.kind == .archive), row: 1, column: 0, columns: layout.columns, rows: area)
        }
        let key = PictureKey(path: path, side: cell.thumbnailSide(columns: layout.columns, rows: area), iconOnly: entry.isDirectory)
        var info = "\(pictures[key]?.contentType.identifier ?? entry.kind.rawValue)  \(Self.humanSize(entry.size))  \(Self.date(entry.modified))"
        if let picture = pictures[key], picture.type != .icon { info += "  from \(picture.source)" }
        for fact in pictures[key]?.facts ?? [] { info += "  \(fact.label) \(TerminalText.escaped(fact.value))" }
        if let failure = failures[key] { info += "  " + TerminalText.escaped(failure) }
        screen.text(" " + info, row: layout.rows - 2, column: 0, width: layout.columns, style: theme.style("status"), fill: true)
        screen.text(" ←/→ previous/next   space/Esc close", row: layout.rows - 1, column: 0, width: layout.columns, style: theme.style("hidden"), fill: true)
    }

    private func drawStatus(_ state: BrowserState) {
        let layout = state.layout
        if let prompt = state.prompt {
            // The name being typed, with the cursor; the selection (what typing replaces) reversed.
            let label: String
            switch prompt.purpose {
            case .rename(let name): label = " rename \(TerminalText.escaped(name)) to: "
            case .create: label = " new file (end with / for a folder): "
            }
            screen.text(label, row: layout.rows - 1, column: 0, width: layout.columns, style: theme.style("filter"), fill: true)
            var column = label.count
            for (index, character) in prompt.characters.enumerated() {
                var style = theme.style("filter")
                if prompt.selection?.contains(index) == true { style.reverse = true }
                screen.text(TerminalText.escaped(String(character)), row: layout.rows - 1, column: column, width: 4, style: style)
                column += TerminalText.escaped(String(character)).count
                if index + 1 == prompt.cursor { screen.text("▏", row: layout.rows - 1, column: column, width: 1, style: theme.style("filter")) }
            }
            if prompt.cursor == 0 { screen.text("▏", row: layout.rows - 1, column: label.count, width: 1, style: theme.style("filter")) }
            return
        }
        let folders = state.entries.folderCount
        var left = " \(state.entries.isEmpty ? 0 : state.cursor + 1)/\(state.entries.count)  \(folders) folders, \(state.entries.count - folders) files"
        if !state.listingComplete { left += "  reading…" }
        left += "  sort:\(state.sort.rawValue)" + (state.showHidden ? "  hidden:shown" : "") + "  [\((driver?.mode ?? .off).rawValue)]"
        if !state.marked.isEmpty { left += "  \(state.marked.count) marked" }
        if let clipboard = state.clipboard { left += "  \(clipboard.paths.count) to \(clipboard.isCut ? "move" : "copy")" }
        // Running jobs in a few characters: "T 45% 120/260" (J shows the panel).
        let active = state.jobs.filter(\.phase.isActive)
        if let job = active.last {
            if job.kind == "thumbnails" {
                left += "  T " + (job.fraction.map { "\(Int($0 * 100))% " } ?? "") + "\(job.processed)/\(job.total.map(String.init) ?? "?")"
            } else {
                left += "  \(job.kind) " + (job.fraction.map { "\(Int($0 * 100))%" } ?? "…") + (job.isPaused ? " paused" : "")
            }
            if active.count > 1 { left += " +\(active.count - 1)" }
        }
        screen.text(left, row: layout.rows - 1, column: 0, width: layout.columns, style: theme.style("status"), fill: true)
        let room = layout.columns - left.count - 2
        // The hints shorten to the room there is; a message may cover the right part of the
        // counts (the position stays readable).
        let right = state.message.map(TerminalText.escaped) ?? Self.statusHints.first { $0.count <= room } ?? ""
        guard !right.isEmpty else { return }
        let start = max(min(left.count + 2, 24), layout.columns - right.count)
        screen.text(right, row: layout.rows - 1, column: start, width: layout.columns - start, style: state.message == nil ? theme.style("status") : theme.style("message"))
    }

    /// The status line's key hints, longest first: the longest that fits is shown.
    static let statusHints = ["v grid  space preview  / filter  ? help  q quit ", "v grid  space preview  ? help ", "? help  q quit ", "? help "]

    private func drawHelp(_ layout: ScreenLayout) {
        let lines = HelpText.lines(for: keys, width: layout.columns - 6, height: layout.rows - 4)
        let width = min(layout.columns - 2, (lines.map(\.count).max() ?? 40) + 4)
        let height = min(layout.rows - 2, lines.count + 2)
        let top = max(1, (layout.rows - height) / 2), left = max(1, (layout.columns - width) / 2)
        let style = theme.style("help")
        screen.fill(row: top, column: left, width: width, height: height, style: style)
        for (offset, line) in lines.prefix(height - 2).enumerated() {
            screen.text(line, row: top + 1 + offset, column: left + 2, width: width - 4, style: style)
        }
    }

    /// Draws the best picture known for `key`, fitted and centred in the cell rectangle. Its
    /// encoding is asked of the encoder the first time; until it comes, what this rectangle
    /// showed before (a lower representation) stays.
    private func drawPicture(_ key: PictureKey, row: Int, column: Int, columns: Int, rows: Int) {
        guard columns > 0, rows > 0, let driver, !hidePictures, let representation = pictures[key] else { return }
        let slot = "\(key.path)|\(key.side)|\(columns)x\(rows)"
        let id = "\(slot)|\(representation.type.rawValue)"
        wantedEncodings.insert(id)
        if encoded[id] == nil && pendingEncodings.insert(id).inserted {
            encoder.request(.init(id: id, image: representation.image, driver: driver, columns: columns, rows: rows, imageID: imageID(for: id)))
        }
        guard let shownID = encoded[id] != nil ? id : lastDrawn[slot].flatMap({ encoded[$0] != nil ? $0 : nil }), let picture = encoded[shownID],
              !picture.isEmpty else { return }
        if lastDrawn.count > 2000 { lastDrawn.removeAll() }
        lastDrawn[slot] = shownID
        placements.place(id: shownID, picture: picture, row: row + (rows - picture.rows) / 2, column: column + (columns - picture.columns) / 2)
    }

    /// The image id an encoding is kept under (kitty); the same each time it is encoded.
    private func imageID(for id: String) -> UInt32 {
        if let existing = imageIDs[id] { return existing }
        if imageIDs.count > 8192 { imageIDs = imageIDs.filter { placements.holds($0.value) } }
        let imageID = KittyDriver.imageID(serial: imageSerial)
        imageSerial += 1
        imageIDs[id] = imageID
        return imageID
    }

    // MARK: Text helpers

    private func nameStyle(_ entry: Entry) -> Theme.Style {
        if let style = lsColors.style(name: entry.name, isDirectory: entry.isDirectory, isSymbolicLink: entry.isSymbolicLink) { return style }
        if entry.isHidden { return theme.style("hidden") }
        if entry.isSymbolicLink { return theme.style("link") }
        return theme.style(styleName(entry.kind))
    }

    private func styleName(_ kind: ContentKind) -> String {
        switch kind {
        case .folder: return "folder"
        case .image, .rawImage: return "image"
        case .video: return "video"
        case .audio: return "audio"
        case .pdf, .document: return "document"
        case .text: return "text"
        case .archive: return "archive"
        case .unknown: return "file"
        }
    }

    static func glyph(_ entry: Entry) -> String {
        switch entry.kind {
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

    static func humanSize(_ bytes: Int) -> String {
        let units = ["B", "K", "M", "G", "T"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        if unit == 0 { return "\(bytes)B" }
        if value < 10 { let tenths = Int((value * 10).rounded()); return "\(tenths / 10).\(tenths % 10)\(units[unit])" }
        return "\(Int(value.rounded()))\(units[unit])"
    }

    static func date(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func clip(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }
}

/// The help overlay's lines, naming the keys as the user's key map binds them.
enum HelpText {
    private static let descriptions: [(KeyMap.Command, String)] = [
        (.down, "move down"), (.up, "move up"), (.left, "parent folder (grid: left)"), (.right, "open (grid: right)"),
        (.parent, "parent folder"), (.open, "open folder or file"), (.top, "first"), (.bottom, "last"),
        (.pageDown, "page down"), (.pageUp, "page up"), (.quickLook, "Quick Look"), (.filter, "filter (Enter keeps, Esc clears)"),
        (.view, "list / thumbnail grid"), (.sort, "sort: name, size, time, kind"), (.hidden, "hidden files"),
        (.extensions, "extensions"), (.volumes, "volumes: disks, sticks, shares"),
        (.batch, "thumbnail a folder in the background"), (.jobs, "jobs panel"), (.cancel, "cancel a job (jobs panel)"),
        (.mark, "mark"), (.invertMarks, "invert marks"), (.unmark, "clear marks"), (.copy, "copy marked (or this)"), (.cut, "cut marked (or this)"),
        (.paste, "paste here"), (.rename, "rename"), (.create, "new file, or folder with a trailing /"), (.trash, "move to the trash"),
        (.delete, "delete for good (asks)"), (.restore, "restore what was last trashed"), (.redraw, "redraw the screen and pictures"),
        (.help, "this help"), (.quit, "quit"),
    ]

    /// The help in two columns fitted to `width`×`height` cells: on a narrow screen the key column
    /// narrows and long descriptions end in "…"; on a short one the closing hints go first.
    static func lines(for keys: KeyMap, width: Int = 110, height: Int = 40) -> [String] {
        let column = min(54, max(20, (width - 2) / 2))
        let keyWidth = min(20, max(8, column - 30))
        var cells: [String] = []
        for (command, text) in descriptions {
            let names = keys.keys(for: command).map(displayName)
            guard !names.isEmpty else { continue }
            let left = BrowserView.clip(names.joined(separator: " "), to: keyWidth - 1)
            cells.append(BrowserView.clip(left.padding(keyWidth) + text, to: column - 2))
        }
        // Two columns, so that every key fits on a 24-line terminal.
        let half = (cells.count + 1) / 2
        var lines = ["qlbrowse keys", ""]
        for row in 0..<half {
            let right = row + half < cells.count ? cells[row + half] : ""
            lines.append(cells[row].padding(column) + right)
        }
        let hints = ["", "Esc closes or clears, Ctrl-C quits (always).", "In Quick Look: ← → previous / next, space or Esc closes.",
                     "Mouse: wheel scrolls, click selects.", "Keys can be changed in config.toml's [keys] table."]
        return lines + hints.prefix(max(0, height - lines.count))
    }

    private static func displayName(_ key: String) -> String {
        switch key {
        case "down": return "↓"
        case "up": return "↑"
        case "left": return "←"
        case "right": return "→"
        case "pgdn": return "PgDn"
        case "pgup": return "PgUp"
        case "home": return "Home"
        case "end": return "End"
        case "enter": return "Enter"
        case "backspace": return "Backspace"
        case "space": return "space"
        case "tab": return "Tab"
        default: return key.hasPrefix("ctrl-") ? "^" + key.dropFirst(5).uppercased() : key
        }
    }
}

extension String {
    /// The text cut or padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}

extension String {
    /// A number with one decimal, without Foundation.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
