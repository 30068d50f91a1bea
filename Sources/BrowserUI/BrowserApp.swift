import BrowserCore
import Dispatch
import FileSystemKit
import SystemKit
import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The browser: owns the screen and the state, runs the event loop on the main thread.
///
/// Keys become actions, background results arrive as messages, the state changes only through
/// `BrowserState.apply`, and the screen is drawn once after each batch of events. No filesystem
/// call and no decoding ever happens on this thread.
public final class BrowserApp {
    private let options: BrowserOptions
    private var state: BrowserState
    private let screen: CursesScreen
    private let inbox = Inbox()
    private let lister = DirectoryLister()
    private var listing: DirectoryLister.Listing?
    private var volumeMonitor: VolumeMonitor?
    private let jobs: JobRunner
    private let fileJobs: FileJobRunner
    /// The state before the current folder's listing began: Esc while waiting on a stuck volume goes back to it.
    private var beforeNavigation: BrowserState?
    /// When the current listing last delivered (monotonic nanoseconds), to notice a stalled one.
    private var lastListingProgress: Int64 = 0
    /// A listing silent this long shows "waiting for <volume>…".
    private let stallNotice: Int64 = 300_000_000
    private let pool: WorkerPool
    private let pictures: PictureService
    private let view: BrowserView
    private var running = true
    /// `QLBROWSE_TRACE=1`: picture requests and results go to the log file, for debugging.
    private let tracing = ProcessEnvironment.current.variables["QLBROWSE_TRACE"] != nil
    private var signalSources: [DispatchSourceSignal] = []
    /// What is known about the terminal (probed before the screen is taken over).
    private var facts: TerminalFacts
    /// Inside tmux: the pane's `allow-passthrough` as it was, to put back on quit.
    private let tmux: TmuxClient?
    private var passthroughToRestore: String?
    private var graphicsMode = GraphicsMode.off

    public init(options: BrowserOptions) {
        self.options = options
        self.state = BrowserState(folder: options.folder, layout: ScreenLayout(previewPercent: options.previewPercent))
        self.screen = CursesScreen(useColor: options.useColor)
        self.pool = WorkerPool(stderrPath: options.logFile)
        let generator = ThumbnailGenerator(pool: pool, cache: ThumbnailCache())
        self.pictures = PictureService(generator: generator, inbox: inbox)
        self.jobs = JobRunner(inbox: inbox, logFile: options.logFile)
        self.fileJobs = FileJobRunner(inbox: inbox, verifiesCopies: options.verifiesCopies)
        let environment = ProcessEnvironment.current.variables
        self.tmux = TmuxClient(environment: environment)
        // Inside tmux the outer terminal is asked through the passthrough, so it is turned on
        // (for this pane only) before asking; put back at once if the driver does not need it.
        if let tmux, options.graphics != .off && options.graphics != .symbols { passthroughToRestore = tmux.enablePassthrough() }
        self.facts = TerminalProbe.facts(environment: environment, asks: options.graphics == nil)
        self.view = BrowserView(screen: screen, theme: options.theme, lsColors: options.lsColors, driver: nil, cell: TerminalProbe.cellSize(),
                                encoder: PictureEncoder(inbox: inbox), keys: options.keys)
    }

    /// Picks the driver from the facts (once ncurses knows the colours) and hands it to the view.
    /// After a resize the tmux pane may have moved, so tmux is asked where it is now.
    private func chooseGraphics(afterResize: Bool = false) {
        facts.terminfoColors = screen.colors
        if afterResize, let tmux, facts.tmux != nil, let origin = tmux.paneOrigin() { facts.tmux?.pane = origin }
        graphicsMode = GraphicsChoice.mode(requested: options.graphics, facts: facts)
        let cell = TerminalProbe.cellSize()
        view.use(GraphicsChoice.driver(graphicsMode, facts: facts, cell: cell), cell: cell)
        if let tmux, let previous = passthroughToRestore, !needsPassthrough {
            tmux.restorePassthrough(previous)
            passthroughToRestore = nil
        }
    }

    /// Inside tmux, every driver but block art (and sixel when tmux draws it itself) goes through the passthrough.
    private var needsPassthrough: Bool {
        guard let tmuxFacts = facts.tmux else { return false }
        switch graphicsMode {
        case .kittyPlaceholders, .iterm, .kitty: return true
        case .sixel: return !tmuxFacts.drawsSixelItself
        case .symbols, .off: return false
        }
    }

    /// Runs until the user quits; returns the folder the user was in.
    public func run() -> String {
        TerminalGuard.install()
        let terminfoNote = screen.start()
        chooseGraphics()
        StandardStreamTrace.line("qlbrowse: graphics \(graphicsMode.rawValue) (TERM=\(facts.environment["TERM"] ?? ""), outer \(facts.outerTerm), "
            + "version \(facts.terminalVersion ?? facts.tmux?.clientTermType ?? "?"), device attributes \(facts.deviceAttributes.map { "\($0)" } ?? "none"), "
            + "kitty graphics \(facts.answersKittyGraphics), tmux \(facts.tmux.map { "\($0.version) \($0.clientFeatures.sorted())" } ?? "no"))")
        if let terminfoNote { StandardStreamTrace.line("qlbrowse: " + terminfoNote) }
        defer {
            view.placements.clearAll(freeing: true)
            if tracing { StandardStreamTrace.line("pictures: \(view.placements.bytesWritten) bytes written") }
            screen.stop()
            if let tmux, let previous = passthroughToRestore { tmux.restorePassthrough(previous) }
            let pool = self.pool, jobs = self.jobs
            // Quitting (q, Ctrl-C) cancels file jobs and gives them a moment to remove their
            // temporaries before the process goes: nothing partial is left behind.
            fileJobs.cancelAll()
            fileJobs.waitUntilIdle(seconds: 5)
            Task { await jobs.shutdown(); await pool.shutdown() }
        }
        watchSignals()
        let inbox = self.inbox
        let monitor = VolumeMonitor { statuses in inbox.post(.action(.volumesChanged(statuses))) }
        volumeMonitor = monitor
        defer { monitor.stop() }
        // The first mount table is read before the first listing, so that it runs on the right volume.
        state.apply(.volumesChanged(monitor.volumes))
        apply(.resize(rows: screen.rows, columns: screen.columns))
        perform(state.start())
        if options.startInVolumes { apply(.toggleVolumes) }
        if let terminfoNote { apply(.showMessage(terminfoNote)) }
        var needsDraw = true
        while running {
            for message in inbox.drain() { handle(message); needsDraw = true }
            while let key = screen.readKey() {
                handle(key)
                needsDraw = true
                if !running { break }
            }
            if !running { break }
            if needsDraw {
                view.draw(state)
                requestPictures()
                needsDraw = false
            }
            if noticeStalledListing() { needsDraw = true }
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: inbox.wakeRead, events: Int16(POLLIN), revents: 0)]
            // While a listing is under way, wake often: to notice a stall, and to turn the spinner.
            _ = poll(&fds, 2, state.listingComplete ? 250 : 100)
            if state.waitingFor != nil { needsDraw = true }
        }
        return state.folder
    }

    private func watchSignals() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let inbox = self.inbox
            source.setEventHandler { inbox.post(.interrupt) }
            source.resume()
            signalSources.append(source)
        }
    }

    private func handle(_ key: KeyInput) {
        if key == .resize {
            screen.updateSize()
            view.placements.clearAll()
            screen.clearAll()
            // The cell size may have changed (a font resize) and, inside tmux, the pane may have moved.
            chooseGraphics(afterResize: true)
            apply(.resize(rows: screen.rows, columns: screen.columns))
            return
        }
        // Ctrl-L, or the focus coming back: everything is drawn again, pictures included.
        if key == .focusIn || (options.keys.command(for: key) == .redraw && !state.isTypingFilter && state.prompt == nil) {
            view.placements.clearAll()
            screen.clearAll()
            return
        }
        if key == .character(27), let volume = state.waitingFor, let previous = beforeNavigation {
            // Esc while a stuck volume is awaited: give up on it and go back to where the user was.
            listing?.cancel()
            listing = nil
            state = previous
            beforeNavigation = nil
            // A folder left before its listing ended is listed again.
            if !state.listingComplete { perform(state.start()) }
            apply(.showMessage("stopped waiting for \(volume)"))
            return
        }
        guard let action = KeyBindings.action(for: key, state: state, keys: options.keys) else { return }
        apply(action)
    }

    /// Tells the state when the current listing has been silent too long; true when it changed.
    private func noticeStalledListing() -> Bool {
        guard !state.listingComplete, state.waitingFor == nil, SystemTime.now() - lastListingProgress > stallNotice else { return false }
        let volume = state.currentVolume?.label ?? state.folder
        apply(.listingStalled(ticket: state.ticket, volume: volume))
        return state.waitingFor != nil
    }

    private func handle(_ message: UIMessage) {
        switch message {
        case .action(.volumesChanged(let statuses)):
            let before = state.currentVolume, statusesBefore = state.volumes
            apply(.volumesChanged(statuses))
            // The volume under the current folder left the mount table: unplugged or unmounted.
            // Jobs on a volume that left stop, with a report of what was done.
            for job in state.jobs where job.phase.isActive {
                guard let volume = Volume.containing(job.folder, in: statusesBefore.map(\.volume)), volume.mountPoint != "/",
                      !statuses.contains(where: { $0.volume.mountPoint == volume.mountPoint && !$0.isDisconnected }) else { continue }
                jobs.stop(job.id, reason: "\(volume.label) was disconnected")
            }
            // Or it is still listed but dead underneath (FUSE daemon or server gone).
            if let before, before.mountPoint != "/",
               !statuses.contains(where: { $0.volume.mountPoint == before.mountPoint && !$0.isDisconnected }) {
                leaveVanished(before)
            }
        case .action(.listed(let ticket, let entries, let complete)):
            if ticket == state.ticket { lastListingProgress = SystemTime.now() }
            apply(.listed(ticket: ticket, entries: entries, complete: complete))
        case .action(let action): apply(action)
        case .volumeLost(let mountPoint):
            if let volume = state.currentVolume, volume.mountPoint == mountPoint, mountPoint != "/" { leaveVanished(volume) }
        case .listingFailed(let ticket, let failure):
            guard ticket == state.ticket else { return }
            if failure.meansVolumeGone, let volume = state.currentVolume, volume.mountPoint != "/" {
                leaveVanished(volume)
            } else {
                apply(.listingFailed(ticket: ticket, reason: failure.message))
            }
        case .picture(let key, let representation):
            if tracing { StandardStreamTrace.line("picture \(key.path) \(representation.type) \(representation.image.size)") }
            view.store(representation, for: key)
        case .pictureFailed(let key, let reason):
            if tracing { StandardStreamTrace.line("failed \(key.path) \(reason)") }
            view.storeFailure(reason, for: key)
        case .textPreview(let path, let lines): view.storeText(lines, for: path)
        case .encoded(let id, let picture):
            if tracing { StandardStreamTrace.line("encoded \(id) \(picture.columns)x\(picture.rows) \(picture.byteCount) bytes") }
            view.storeEncoded(picture, id: id)
        case .interrupt: running = false
        }
    }

    private func volumeKey(for path: String) -> String {
        Volume.containing(path, in: state.volumes.map(\.volume))?.mountPoint ?? "/"
    }

    /// The volume under the current folder is gone: say so and move to the folder it was mounted
    /// in (on another volume, so reachable).
    private func leaveVanished(_ volume: Volume) {
        for job in state.jobs where job.phase.isActive && volume.contains(job.folder) {
            jobs.stop(job.id, reason: "\(volume.label) was disconnected")
        }
        let parent = String(volume.mountPoint[..<(volume.mountPoint.lastIndex(of: "/") ?? volume.mountPoint.startIndex)])
        apply(.volumeGone(label: volume.label, fallback: parent.isEmpty ? "/" : parent))
    }

    /// Asks the volume under the volumes view's cursor what it allows (reads only, no trial file).
    private func probeSelectedVolume() {
        guard state.overlay == .volumes, state.volumes.indices.contains(state.volumeCursor) else { return }
        let volume = state.volumes[state.volumeCursor].volume
        guard state.capabilities[volume.mountPoint] == nil else { return }
        let inbox = self.inbox
        VolumeIO.shared.run(volume: volume.mountPoint, deadline: 2, {
            VolumeCapabilities.probe(folder: volume.mountPoint, fsType: volume.fsType, trial: false)
        }, completion: { outcome in
            if case .done(let found) = outcome { inbox.post(.action(.capabilitiesFound(mountPoint: volume.mountPoint, found))) }
        })
    }

    private func apply(_ action: BrowserAction) {
        defer { probeSelectedVolume() }
        let wasQuickLook = state.overlay == .quickLook
        let before = state
        let effects = state.apply(action)
        if effects.contains(where: { if case .list = $0 { return true } else { return false } }) { beforeNavigation = before }
        perform(effects)
        if state.overlay == .quickLook, let entry = state.selected, entry.kind == .text, let path = state.selectedPath, !view.hasText(for: path) {
            pictures.readText(path)
        }
        if wasQuickLook != (state.overlay == .quickLook) { view.placements.clearAll(); screen.clearAll() }
    }

    private func perform(_ effects: [BrowserEffect]) {
        for effect in effects {
            switch effect {
            case .list(let folder, let ticket):
                listing?.cancel()
                let inbox = self.inbox
                lastListingProgress = SystemTime.now()
                let volume = Volume.containing(folder, in: state.volumes.map(\.volume))?.mountPoint ?? "/"
                let prefix = folder == "/" ? "/" : folder + "/"
                let mounted = Set(state.volumes.map(\.volume.mountPoint).filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }
                    .map { Array($0.dropFirst(prefix.count).utf8) })
                listing = lister.list(folder, volume: volume, mountPoints: mounted) { entries, complete, failure in
                    if let failure {
                        inbox.post(.action(.listed(ticket: ticket, entries: entries, complete: true)))
                        inbox.post(.listingFailed(ticket: ticket, failure))
                    } else {
                        inbox.post(.action(.listed(ticket: ticket, entries: entries, complete: complete)))
                    }
                }
            case .startBatch(let folder, let shared):
                jobs.start(folder: folder, shared: shared)
            case .cancelJob(let id):
                jobs.stop(id)
                fileJobs.cancel(id)
            case .pauseJob(let id, let paused):
                fileJobs.pause(id, paused)
            case .fileOperation(let kind, let sources, let destination):
                fileJobs.start(kind, sources: sources, destination: destination, volumes: state.volumes.map(\.volume))
            case .rename(let from, let to):
                fileJobs.rename(from, to: to, volume: volumeKey(for: from))
            case .create(let path, let folder):
                fileJobs.create(path, folder: folder, volume: volumeKey(for: path))
            case .restore(let items):
                fileJobs.restore(items, volumes: state.volumes.map(\.volume))
            case .resolveConflict(let job, let choice, let all):
                fileJobs.answer(job, choice, applyToAll: all)
            case .openFile(let path, let kind):
                open(path, kind: kind)
            case .quit:
                running = false
            }
        }
    }

    /// Opens a file the way the desktop would: text in `$EDITOR`/`$PAGER`, the rest with `xdg-open`.
    private func open(_ path: String, kind: String) {
        let environment = ProcessEnvironment.current.variables
        let command: [String]
        if kind == ContentKind.text.rawValue {
            let editor = environment["VISUAL"] ?? environment["EDITOR"]
            let program = editor ?? environment["PAGER"] ?? "less"
            command = program.split(separator: " ").map(String.init) + [path]
        } else {
            command = ["xdg-open", path]
        }
        let foreground = kind == ContentKind.text.rawValue
        if foreground { view.placements.clearAll(); screen.suspend() }
        let status = ChildProcess.run(command, quiet: !foreground)
        if foreground { screen.resume() }
        if status == 127 {
            apply(.showMessage("cannot open: \(command[0]) is not installed" + (command[0] == "xdg-open" ? " (Debian package xdg-utils)" : "")))
        }
    }

    private func requestPictures() {
        var (keys, done) = view.wantedPictures(for: state)
        // Nothing is asked of a stick or share that is not answering: its files keep their icons.
        // (Local disks are always asked: a slow answer there is load, not a dead mount.)
        let silent = Set(state.volumes.filter { !$0.isResponding && $0.volume.kind != .local }.map(\.volume.mountPoint))
        if !silent.isEmpty {
            let volumes = state.volumes.map(\.volume)
            keys = keys.filter { key in Volume.containing(key.path, in: volumes).map { !silent.contains($0.mountPoint) } ?? true }
        }
        if tracing { StandardStreamTrace.line("want \(keys.map(\.path)) done \(done.count)") }
        pictures.want(keys, done: done)
    }
}

/// Runs a program to completion with the terminal, for pagers, editors and openers.
enum ChildProcess {
    /// The exit status; 127 when the program was not found.
    static func run(_ command: [String], quiet: Bool) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, command[0], &actions, nil, argv, ProcessEnvironment.spawnEnvironment) == 0 else { return 127 }
        let status = SystemCall.waitForExit(pid)
        return (status >> 8) & 0xff
    }
}

/// Debug tracing to standard error (the log file while the UI runs), with QLBROWSE_TRACE set.
enum StandardStreamTrace {
    static func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
