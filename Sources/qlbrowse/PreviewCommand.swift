import ArgumentParser
import Places
import SystemKit
import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse preview FILE`: a picture of a file fitted to a number of cells, written to standard
/// output, for the preview panes of other programs (lf, fzf, ranger, nnn).
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Print a picture of a file fitted to COLSxROWS cells, for other programs' preview panes.",
        discussion: """
            Pictures come from the thumbnail cache when they are there, and are made (and cached) when not. \
            Text files print their first lines, made safe to show. The graphics mode comes from --graphics, \
            else from config.toml's `graphics`, else from the environment (kitty, Ghostty, WezTerm, iTerm2; \
            block art otherwise): the terminal is not asked, since the calling program owns its input. \
            With --place the picture goes straight to the terminal (/dev/tty) at that cell, for programs \
            such as lf that draw kitty pictures that way; --clear takes kitty pictures down again.
            """)

    @Argument(help: "The file to preview.")
    var file: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The cells the picture may fill (default: the terminal's size).", valueName: "COLSxROWS"))
    var size: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw on the terminal at this cell (0-based), not on standard output.", valueName: "COLxROW"))
    var place: String?

    @Option(help: ArgumentHelp("How to draw: auto, kitty, kitty-placeholders, sixel, iterm, symbols.", valueName: "mode"))
    var graphics: String?

    @Flag(help: "Take down the kitty pictures earlier calls drew (lf's cleaner).")
    var clear = false

    @Flag(help: "Decode in a worker of this call's own, not in the resident thumbnail service (also: service = false in config.toml).")
    var noService = false

    func validate() throws {
        if clear { return }
        guard file != nil else { throw ValidationError("preview needs a FILE (or --clear)") }
        if let size, PreviewCommand.cells(size) == nil { throw ValidationError("--size takes COLSxROWS, e.g. 60x20") }
        if let place, PreviewCommand.cells(place, allowsZero: true) == nil { throw ValidationError("--place takes COLxROW, e.g. 40x1") }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let config = UserConfig.load()
        let environment = ProcessEnvironment.terminalVariables
        let chosen = try GraphicsOption.mode(graphics ?? config.values["graphics"] ?? "auto", allowed: GraphicsMode.allCases.filter { $0 != .off })
        var facts = TerminalProbe.facts(environment: environment, asks: false)
        let term = environment["TERM"] ?? ""
        facts.terminfoColors = ["256", "kitty", "ghostty", "alacritty", "foot", "wezterm", "direct"].contains { term.contains($0) } ? 256 : 16
        let mode = GraphicsChoice.mode(requested: chosen, facts: facts)
        let cell = TerminalProbe.cellSize(fd: Self.terminalDescriptor())
        // Block art at chafa's own default effort, as the previewer set-ups this replaces draw it
        // (the browser spends more per cell, off its UI thread).
        guard let driver = GraphicsChoice.driver(mode == .off ? .symbols : mode, facts: facts, cell: cell,
                                                 symbolsWork: SymbolsDriver.chafaDefaultWork) else { return }
        if clear {
            try Self.toTerminal(driver.eraseAll(freeing: true))
            return
        }
        guard let file else { return }
        let area = size.flatMap { Self.cells($0) } ?? Self.terminalSize()
        let files = LocalPlace()
        let item: PlaceItem
        do throws(FileSystemError) {
            item = try await files.item(at: file)
        } catch {
            throw RuntimeError("cannot preview \(TerminalText.escaped(file)): \(String(cString: strerror(error.errno)))")
        }
        var output: [UInt8]
        if item.isRegularFile, let type = ContentTypeTable.type(forFileName: file), type.kind == .text {
            // A text preview needs the first 64 KiB only: a ranged read, never the whole file.
            let bytes: [UInt8]
            do throws(FileSystemError) {
                bytes = try await files.read(file, offset: 0, length: 64 * 1024)
            } catch {
                throw RuntimeError("cannot read \(TerminalText.escaped(file)): \(String(cString: strerror(error.errno)))")
            }
            output = Array(TextPreview.lines(from: bytes, maxLines: area.rows, maxColumns: area.columns).joined(separator: "\n").utf8) + [0x0A]
        } else {
            // Block art samples a few pixels per cell (chafa: 8x8, most of them for a 1:2 cell's
            // shape): a picture of 6x12 per cell is enough, and a camera photo decodes and caches
            // at 512 px instead of 1024 (a quarter of the pixels to decode, encode and read back).
            let sampled = mode == .symbols || mode == .off ? CellSize(width: 6, height: 12) : cell
            let imageID = KittyDriver.imageID(serial: Int(getpid()) % 60_000)
            let picture = try await picture(of: file, isFolder: item.isDirectory, area: area, cell: sampled, config: config) { image in
                driver.render(image, columns: area.columns, rows: area.rows, imageID: imageID)
            }
            output = driver.inline(picture)
            if !driver.drawsIntoCells || mode == .symbols || mode == .kittyPlaceholders { output += [0x0A] }
        }
        if let place, let at = Self.cells(place, allowsZero: true) {
            try Self.toTerminal(Array("\u{1B}7\u{1B}[\(at.rows + 1);\(at.columns + 1)H".utf8) + output + Array("\u{1B}8".utf8))
        } else {
            FileDescriptorWriter.writeAll(output, to: 1)
        }
    }

    /// The best picture the engine has for `file` at the size the cells need (from the cache when
    /// it is there; a folder's icon), drawn for the terminal by `render` as soon as it comes, while
    /// the engine writes it to the cache. A file's icon is not drawn: a file the engine cannot
    /// picture is an error here, so the icon would only be thrown away (drawing it cost 3–4 ms a call).
    private func picture(of file: String, isFolder: Bool, area: (columns: Int, rows: Int), cell: CellSize, config: UserConfig,
                         render: @escaping @Sendable (PixelImage) -> TerminalPicture) async throws -> TerminalPicture {
        let side = cell.thumbnailSide(columns: area.columns, rows: area.rows)
        let pool = WorkerChoice.backend(noService: noService, config: config) { WorkerPool(size: 1, stderrPath: ProcessEnvironment.workerLog) }
        let generator = ThumbnailGenerator(workers: pool, cache: ThumbnailCache())
        var request = ThumbnailRequest(path: file, size: Double(side), types: isFolder ? [.icon] : [.thumbnail])
        request.maximumIconSide = 256
        request.deliversBeforeCaching = true
        // A preview shows no file facts: the worker need not gather them (a JPEG's cost a header
        // read through libvips and a Motion Photo search of its first 160 KB, ~15 ms a camera photo).
        request.wantsFacts = false
        do {
            // One representation comes (the thumbnail, or a folder's icon); the stream ends once
            // the cache has it, and the picture is drawn meanwhile.
            var drawing: Task<TerminalPicture, Never>?
            for try await representation in generator.representations(for: request) {
                let image = representation.image
                drawing = Task { render(image) }
            }
            await pool.shutdown(waitSeconds: 2)
            guard let drawing else { throw ThumbnailError(.noPreview, "no picture could be made") }
            return await drawing.value
        } catch {
            await pool.shutdown(waitSeconds: 2)
            // A failure remembered in the cache is retried once the file changes (preview has no --force).
            let reason = (error as? ThumbnailError).map { $0.retryHint("it is tried again once the file changes").reason } ?? "\(error)"
            throw RuntimeError("cannot preview \(TerminalText.escaped(file)): \(reason)")
        }
    }

    /// `60x20` as cells; nil when it is not two positive numbers (zero allowed for places).
    static func cells(_ text: String, allowsZero: Bool = false) -> (columns: Int, rows: Int)? {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ allowsZero ? $0 >= 0 : $0 > 0 }), parts.allSatisfy({ $0 <= 10_000 }) else { return nil }
        return (parts[0], parts[1])
    }

    private static func terminalDescriptor() -> Int32 {
        isatty(1) == 1 ? 1 : isatty(2) == 1 ? 2 : 0
    }

    private static func terminalSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        for fd: Int32 in [1, 2, 0] where ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 && size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row) - 1)
        }
        return (80, 23)
    }

    private static func toTerminal(_ bytes: [UInt8]) throws {
        let fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw RuntimeError("--place and --clear draw on the terminal, and there is none (/dev/tty)") }
        defer { close(fd) }
        FileDescriptorWriter.writeAll(bytes, to: fd)
    }
}
