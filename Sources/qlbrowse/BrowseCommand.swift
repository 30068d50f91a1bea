import ArgumentParser
import BrowserUI
import FileSystemKit
import Places
import SystemKit
import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse [PATH]`: the file browser.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse a folder with thumbnails (the default command).",
        discussion: """
            Keys: j/k/↓/↑ move, h/←/Backspace parent, l/→/Enter open, space Quick Look, v grid, / filter, \
            s sort, . hidden files, e extensions, Ctrl-L redraw, ? help, q quit.
            Config: $XDG_CONFIG_HOME/qlbrowse/config.toml (theme = "light", graphics = "symbols"). \
            Themes: Themes/*.theme, or NAME.theme in $XDG_CONFIG_HOME/qlbrowse/themes. LS_COLORS colours names; NO_COLOR turns colour off.
            """)

    @Argument(help: "The folder to open (default: the current folder).")
    var path: String?

    @Option(help: ArgumentHelp("How pictures are drawn: auto (detected), kitty, kitty-placeholders, sixel, iterm, symbols (block art) or none.", valueName: "mode"))
    var graphics: String?

    @Option(help: "Colour theme: default, light, high-contrast, or a theme file.")
    var theme: String?

    @Option(help: ArgumentHelp("On quit, write the folder you were in to FILE (for cd-on-quit shell functions).", valueName: "FILE"))
    var choosedir: String?

    @Flag(help: "Open on the volumes view: every mounted disk, stick and share (V in the browser).")
    var volumes = false

    @Flag(help: "Decode thumbnails in workers of this browser's own, not in the resident service shared with other windows and tools (also service = false in config.toml, QLBROWSE_NO_SERVICE=1).")
    var noService = false

    @Flag(help: "Browse an ssh:// or host:path folder over plain SFTP, even when the remote has qlbrowse (also ssh_mode = \"sftp\" in config.toml): pictures are made here from embedded previews and cached copies.")
    var sftp = false

    /// The browser's malloc: one arena (the listing thread allocates what the UI thread keeps
    /// and frees, and per-thread arenas held megabytes of freed memory for a huge folder), and
    /// blocks of 128 KB and more mapped alone, so that a listing's freed batches leave nothing
    /// resident. Set by `ProgramEntry` before any thread starts: an arena made earlier stays.
    static func setUpMemory() {
        MallocArenas.limit(to: 1)
        MallocArenas.mapBlocks(from: 128 * 1024)
    }

    func run() throws {
        // Again for a command line only the full parser reads (late, but the same policy).
        Self.setUpMemory()
        let config = UserConfig.load()
        for problem in config.problems { StandardStream.write("qlbrowse: \(problem)\n", to: 2) }
        let mode = try GraphicsOption.mode(graphics ?? config.values["graphics"] ?? "auto")
        let themeName = theme ?? config.values["theme"] ?? "default"
        let loadedTheme = try ThemeLoader.load(themeName)
        let remote = try RemoteEntry.open(path, config: config, forcesSFTP: sftp)
        // A remote folder is named under its place's prefix (`ssh://host`), beside local tabs.
        let remotePrefix = remote.map { PlacePath.prefix(destination: $0.address.destination, port: $0.address.port) }
        let folder = try remote.map { PlacePath.join(remotePrefix, $0.folder) } ?? Self.folder(path ?? ".")
        if let choosedir { try Self.checkWritable(choosedir, what: "--choosedir") }
        guard isatty(0) == 1 && isatty(1) == 1 else {
            throw RuntimeError("the browser needs a terminal; for scripts use `qlbrowse thumbnail`")
        }
        var keys = KeyMap.standard
        for binding in config.keyBindings {
            if let problem = keys.bind(binding.key, to: binding.command) {
                StandardStream.write("qlbrowse: \(UserConfig.folder)/config.toml:\(binding.line): \(TerminalText.escaped(problem))\n", to: 2)
            }
        }
        var previewPercent = 55
        if let text = config.values["preview_width"] {
            guard let percent = Int(text.hasSuffix("%") ? String(text.dropLast()) : text), (20...80).contains(percent) else {
                throw RuntimeError("preview_width in config.toml takes a percentage from 20 to 80 (not \(TerminalText.escaped(text)))")
            }
            previewPercent = percent
        }
        let noColor = ProcessEnvironment.variable("NO_COLOR") != nil
        let log = ProcessEnvironment.stateFolder + "/qlbrowse.log"
        var options = BrowserOptions(folder: folder, graphics: mode, theme: loadedTheme, lsColors: LSColors(noColor ? nil : ProcessEnvironment.variable("LS_COLORS")),
                                     useColor: !noColor, chooseDirFile: choosedir, logFile: log, keys: keys, previewPercent: previewPercent)
        options.startInVolumes = volumes
        options.placeLabel = remote?.label
        options.sshCommand = ProcessEnvironment.variable("QLBROWSE_SSH_COMMAND") ?? config.values["ssh_command"]
        options.remoteCommand = RemoteEntry.command(config: config).remoteCommand
        options.forcesSFTP = sftp || RemoteEntry.sftpConfigured(config)
        // No theme named: the light one when the terminal says its background is light (OSC 11).
        if theme == nil && config.values["theme"] == nil { options.lightTheme = try? ThemeLoader.load("light") }
        options.verifiesCopies = ["true", "yes", "1"].contains(config.values["verify_copies"]?.lowercased() ?? "")
        // The browser's own workers (Quick Look, and thumbnails without the service), the
        // resident service's client for thumbnails, the cache and the undo journal.
        // Two more workers for embedded previews only: on a slow share they mostly wait for the bytes.
        let pool = WorkerPool(cheapSlots: 2, stderrPath: log)
        let thumbnails: any WorkerBackend = WorkerChoice.usesService(noService: noService, config: config)
            ? WorkerChoice.serviceClient(idleSeconds: WorkerChoice.idleSeconds(config)) { pool } : pool
        var parts = BrowserParts(previews: pool, thumbnails: thumbnails, jobs: WorkerPool(size: 1, stderrPath: log),
                                 edits: WorkerPool(size: 1, limits: EditSaver.workerLimits, stderrPath: log),
                                 cache: ThumbnailCache(), journal: BrowserParts.userJournal(), time: SystemTime()) {
            if !(thumbnails is WorkerPool) { await thumbnails.shutdown(waitSeconds: 1) }
            await pool.shutdown()
        }
        // A remote folder: its listings, pictures and file calls go to the remote's qlbrowse (or,
        // over SFTP, to its SFTP server, the pictures made here by these workers from copies).
        if let remote, let remotePrefix { parts.remotes = [(remotePrefix, remote.place, options.placeLabel)] }
        remote?.sftp?.useThumbnails(ThumbnailGenerator(workers: thumbnails, cache: parts.cache), cache: parts.cache)
        // Library chatter (GLib warnings) goes to the log file, never onto the screen.
        let savedError = fcntl(2, F_DUPFD_CLOEXEC, 0)
        let logFD = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if logFD >= 0 { dup2(logFD, 2); close(logFD) }
        let finalFolder = BrowserApp(options: options, parts: parts).run()
        // The place the browser started on (the browser disconnects the remote places it knows
        // to be remote; an SFTP place is ended here).
        remote?.disconnect()
        if savedError >= 0 { dup2(savedError, 2); close(savedError) }
        // A remote folder is nowhere to cd to here.
        if let choosedir, remote == nil, PlacePath.isLocal(finalFolder) {
            // The shell function waiting for it would cd nowhere without a word: say so, and fail.
            do {
                try AtomicFileWriter.write(Array(finalFolder.utf8) + [10], to: choosedir, permissions: 0o600)
            } catch {
                throw RuntimeError("cannot write the last folder to \(TerminalText.escaped(choosedir)): \(error.reason)")
            }
        }
    }

    /// Refuses, before the screen is taken, a file option that names a folder or a place that
    /// cannot be written, with what is wrong in words.
    static func checkWritable(_ file: String, what option: String) throws {
        let shown = TerminalText.escaped(file)
        var status = stat()
        if file.withFileSystemRepresentation({ stat($0, &status) }) == 0 {
            guard (status.st_mode & S_IFMT) != S_IFDIR else { throw RuntimeError("\(shown) is a folder; \(option) takes a file to write") }
            return
        }
        let parent = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
        guard (parent.isEmpty ? "/" : parent).withFileSystemRepresentation({ stat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw RuntimeError("\(option) \(shown): the folder \(TerminalText.escaped(parent)) does not exist")
        }
    }

    /// The folder to open, absolute; a file opens its folder.
    static func folder(_ path: String) throws -> String {
        let item: PlaceItem
        do throws(FileSystemError) {
            item = try PlaceCall.wait { () throws(FileSystemError) in try await LocalPlace().item(at: path) }
        } catch {
            throw RuntimeError("cannot open \(TerminalText.escaped(path)): \(String(cString: strerror(error.errno)))")
        }
        let absolute = PathNormalizer.absolute(path)
        if item.isDirectory { return absolute }
        let parent = absolute.split(separator: "/").dropLast().joined(separator: "/")
        return "/" + parent
    }
}
