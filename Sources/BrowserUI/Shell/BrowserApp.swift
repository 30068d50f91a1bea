import BrowserCore
import Dispatch
import FileSystemKit
import SystemKit
import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The browser's shell: owns the screen and the state and runs the event loop on the main thread.
///
/// Keys, the clock and background results become actions; `BrowserState.apply` decides and returns
/// effects, which the effect runner carries out; the screen is drawn once after each batch of
/// events. No filesystem call and no decoding ever happens on this thread.
public final class BrowserApp {
    private let options: BrowserOptions
    private var state: BrowserState
    private let screen: CursesScreen
    private let inbox = Inbox()
    private var volumeMonitor: VolumeMonitor?
    private let effects: EffectRunner
    private let pool: WorkerPool
    /// Where thumbnails are decoded: the resident service, or `pool` itself.
    private let thumbnailWorkers: any WorkerBackend
    private let pictures: PictureService
    private let view: BrowserView
    private let graphics: GraphicsSession
    private let sound = SoundPlayer()
    private var running = true
    /// Text files whose lines are being read for Quick Look (one read at a time per file).
    private var textsAsked: Set<String> = []
    /// What was asked of the worker for the file Quick Look shows (members, length, previewer),
    /// once per visit: the state starts Quick Look's position over for each file, forgetting the
    /// answers, so a file shown again is asked again.
    private var contentAsked: Set<String> = []
    private var contentAskedFor: String?
    /// `QLBROWSE_TRACE=1`: picture requests and results go to the log file, for debugging.
    private let tracing = ProcessEnvironment.current.variables["QLBROWSE_TRACE"] != nil
    private var signalSources: [DispatchSourceSignal] = []
    /// The clock the state is told on every turn of the loop.
    private let time: any TimeSource

    public init(options: BrowserOptions, time: any TimeSource = SystemTime()) {
        self.options = options
        self.time = time
        self.state = BrowserState(folder: options.folder, layout: ScreenLayout(previewPercent: options.previewPercent))
        self.screen = CursesScreen(useColor: options.useColor)
        let pool = WorkerPool(stderrPath: options.logFile)
        self.pool = pool
        self.thumbnailWorkers = options.thumbnailWorkers?(pool) ?? pool
        let generator = ThumbnailGenerator(workers: thumbnailWorkers, cache: ThumbnailCache())
        self.pictures = PictureService(generator: generator, previews: PreviewGenerator(pool: pool), inbox: inbox)
        self.effects = EffectRunner(inbox: inbox, jobs: JobRunner(inbox: inbox, logFile: options.logFile),
                                    fileJobs: FileJobRunner(inbox: inbox, verifiesCopies: options.verifiesCopies,
                                                            journal: UndoJournal(path: ProcessEnvironment.current.stateHome + "/qlbrowse/journal.json") {
                                                                try? AtomicFileWriter.writeState($0, to: $1)
                                                            }),
                                    edits: EditRunner(inbox: inbox, logFile: options.logFile), sshCommand: options.sshCommand)
        self.graphics = GraphicsSession(requested: options.graphics, environment: ProcessEnvironment.current.variables,
                                        asksColours: options.lightTheme != nil)
        let drawer = PictureDrawer(driver: nil, cell: TerminalProbe.cellSize(), encoder: PictureEncoder(inbox: inbox))
        let theme = graphics.facts.hasLightBackground == true ? options.lightTheme ?? options.theme : options.theme
        self.view = BrowserView(screen: screen, theme: theme, lsColors: options.lsColors, keys: options.keys, drawer: drawer)
    }

    /// Runs until the user quits; returns the folder the user was in.
    public func run() -> String {
        TerminalGuard.install()
        let terminfoNote = screen.start(preferring: graphics.facts.textTerm)
        // Keys pressed while the terminal was asked what it is were read with its answers.
        screen.giveBack(graphics.facts.typedAhead)
        chooseGraphics(afterResize: false)
        StandardStreamTrace.line("qlbrowse: " + graphics.description)
        if let terminfoNote { StandardStreamTrace.line("qlbrowse: " + terminfoNote) }
        defer { shutDown() }
        watchSignals()
        let inbox = self.inbox
        let monitor = VolumeMonitor { statuses in inbox.post(.result(.volumesChanged(statuses))) }
        volumeMonitor = monitor
        defer { monitor.stop() }
        // The first mount table is read before the first listing, so that it runs on the right volume.
        apply(.volumesChanged(monitor.volumes))
        apply(.screen(.resize(rows: screen.rows, columns: screen.columns)))
        perform(state.start())
        if options.startInVolumes { apply(.volumes(.toggle)) }
        if let terminfoNote { apply(.showMessage(terminfoNote)) }
        var needsDraw = true
        while running {
            let wasWaiting = state.waitingFor != nil
            apply(.tick(now: time.now()))
            if wasWaiting || state.waitingFor != nil || state.quickLook.playing { needsDraw = true }
            for message in inbox.drain() { handle(message); needsDraw = true }
            while running, let input = screen.readKey() {
                handle(input)
                needsDraw = true
            }
            guard running else { break }
            if needsDraw {
                view.draw(state)
                requestPictures()
                needsDraw = false
            }
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: inbox.wakeRead, events: Int16(POLLIN), revents: 0)]
            // While a listing is under way, wake often: to notice a stall, and to turn the spinner;
            // while something plays, for each frame.
            _ = poll(&fds, 2, state.quickLook.playing ? 40 : state.listingComplete ? 250 : 100)
        }
        return state.folder
    }

    /// Takes the pictures down, gives the terminal back, and lets file jobs remove their temporaries.
    private func shutDown() {
        sound.stop()
        view.placements.clearAll(freeing: true)
        if tracing { StandardStreamTrace.line("pictures: \(view.placements.bytesWritten) bytes written") }
        screen.stop()
        graphics.restore()
        let pool = self.pool, thumbnailWorkers = self.thumbnailWorkers, jobs = effects.jobs, edits = effects.edits
        // Quitting (q, Ctrl-C) cancels file jobs and an edit being saved, and gives them a moment
        // to remove their temporaries before the process goes: nothing partial is left behind.
        effects.fileJobs.cancelAll()
        effects.finishDrives()
        edits.cancel()
        effects.fileJobs.waitUntilIdle(seconds: 5)
        edits.waitUntilIdle(seconds: 5)
        effects.bookmarks.waitUntilSaved(seconds: 2)
        Task {
            await jobs.shutdown()
            if !(thumbnailWorkers is WorkerPool) { await thumbnailWorkers.shutdown(waitSeconds: 1) }
            await pool.shutdown()
            await edits.shutdown()
        }
    }

    private func chooseGraphics(afterResize: Bool) {
        let choice = graphics.chooseDriver(terminfoColors: screen.colors, afterResize: afterResize)
        view.drawer.use(choice.driver, cell: choice.cell)
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

    private func handle(_ input: KeyInput) {
        switch input {
        case .resize:
            screen.updateSize()
            view.repaintAll()
            // The cell size may have changed (a font resize) and, inside tmux, the pane may have moved.
            chooseGraphics(afterResize: true)
            apply(.screen(.resize(rows: screen.rows, columns: screen.columns)))
        case .focusIn: apply(.screen(.redraw))
        case .wheel(let delta): apply(.navigation(.scroll(delta)))
        case .click(let row, let column): apply(.navigation(.click(row: row, column: column)))
        case .key(let press): apply(.key(press, options.keys.command(for: press)))
        }
    }

    private func handle(_ message: UIMessage) {
        switch message {
        case .result(let result):
            if case .quickLookFacts(let path, let facts) = result, facts.custom == .text { view.store.forgetText(for: path) }
            apply(result)
        case .picture(let key, let representation):
            if tracing { StandardStreamTrace.line("picture \(key.path) \(representation.type) \(representation.image.size)") }
            view.receive(representation, for: key)
        case .pictureFailed(let key, let reason):
            if tracing { StandardStreamTrace.line("failed \(key.path) \(reason)") }
            view.store.storeFailure(reason, for: key)
        case .textPage(let page):
            textsAsked.remove(page.path)
            view.store.storeText(page)
            requestText()
        case .members(let page): view.store.storeMembers(page)
        case .encoded(let id, let picture):
            if tracing { StandardStreamTrace.line("encoded \(id) \(picture.columns)x\(picture.rows) \(picture.byteCount) bytes") }
            view.drawer.storeEncoded(picture, id: id)
        case .interrupt: running = false
        }
    }

    private func apply(_ action: BrowserAction) { perform(state.apply(action)) }

    private func apply(_ result: BackgroundResult) { perform(state.apply(result)) }

    private func perform(_ list: [BrowserEffect]) {
        for effect in list {
            switch effect {
            case .quit: running = false
            case .openFile(let path, let kind): open(path, kind: kind)
            case .redraw: view.repaintAll()
            case .readText: requestText()
            case .playSound(let path, let seconds):
                if !sound.play(path, from: seconds) { apply(.showMessage("no sound: install ffmpeg (ffplay) or mpv to hear it")) }
            case .stopSound: sound.stop()
            case .editNames(let folder, let names): editNames(names, in: folder)
            case .forgetPictures(let path):
                // The file changed under its name: its pictures, encodings and facts are asked again.
                view.forgetPictures(of: path)
                contentAskedFor = nil
            default: effects.perform(effect, volumes: state.volumes.map(\.volume))
            }
        }
    }

    /// Opens a file the way the desktop would: text in `$EDITOR`/`$PAGER`, the rest with `xdg-open`.
    private func open(_ path: String, kind: ContentKind) {
        let command = ChildProcess.opener(for: path, isText: kind == .text, environment: ProcessEnvironment.current.variables)
        let foreground = kind == .text
        if foreground { view.placements.clearAll(); screen.suspend() }
        let status = ChildProcess.run(command, quiet: !foreground)
        if foreground { screen.resume() }
        if status == 127 {
            apply(.showMessage("cannot open: \(command[0]) is not installed" + (command[0] == "xdg-open" ? " (Debian package xdg-utils)" : "")))
        }
    }

    /// `R`: the names in `$EDITOR` (vi without one), one per line, the screen given to it until it
    /// exits; what it saved goes back to the state to be checked.
    private func editNames(_ names: [String], in folder: String) {
        let edited = NamesEditor.edit(names, environment: ProcessEnvironment.current.variables) { command in
            view.placements.clearAll()
            screen.suspend()
            defer { screen.resume() }
            return ChildProcess.run(command, quiet: false)
        }
        apply(.namesEdited(folder: folder, names: names, edited: edited))
    }

    /// Reads the lines Quick Look shows of a text file, and a few screens around them so that
    /// scrolling on finds them read, unless they are read already or a read is under way (the
    /// answer asks again if the user scrolled meanwhile).
    private func requestText() {
        guard state.overlay == .quickLook, state.quickLookContent == .text, let path = state.selectedPath else { return }
        if state.quickLook.custom == .text {
            // A previewer's output comes whole, once.
            if view.store.text(for: path) == nil, contentAsked.insert("custom:" + path).inserted {
                pictures.customText(path, columns: state.layout.columns - 6, rows: state.quickLookRows)
            }
            return
        }
        let line = state.quickLook.line, rows = state.quickLookRows
        let toEnd = line >= QuickLookPosition.end
        if !toEnd, view.store.text(for: path)?.covers(line..<(line + rows)) == true { return }
        guard textsAsked.insert(path).inserted else { return }
        let first = toEnd ? line : max(0, line - rows)
        pictures.readText(path, volume: EffectRunner.mountPoint(of: path, in: state.volumes.map(\.volume)), from: first, count: rows * 4, rows: rows)
    }

    /// What Quick Look shows besides pictures and text: whether a custom previewer takes over,
    /// an archive's members, a song's length.
    private func requestQuickLookContent() {
        guard state.overlay == .quickLook, let path = state.quickLookPath, let content = state.quickLookContent, let entry = state.selected else {
            contentAskedFor = nil
            return
        }
        if contentAskedFor != path {
            contentAskedFor = path
            contentAsked.removeAll()
        }
        if !entry.isDirectory, contentAsked.insert("previewer:" + path).inserted {
            pictures.customPreviewer(path, hasBuiltIn: entry.kind != .unknown)
        }
        // Text is asked for by the state itself (`.readText`) and again as each page comes in.
        switch content {
        case .members:
            if view.store.members(for: path) == nil, contentAsked.insert(path).inserted { pictures.listMembers(path) }
        case .timeline where entry.kind != .video && !state.quickLook.showsMotion:
            if state.quickLook.duration == nil, contentAsked.insert(path).inserted { pictures.mediaFacts(path) }
        case .picture where entry.kind == .image && (QuickLookContent.mayAnimate(entry.name) || FileFact.mayBeMotionPhoto(entry.name)):
            // Whether this PNG or WebP moves: a length comes back only for an animation.
            if contentAsked.insert(path).inserted { pictures.mediaFacts(path) }
        default: break
        }
    }

    private func requestPictures() {
        requestQuickLookContent()
        var keys = PictureSlots(state: state, cell: view.drawer.cell).wanted
        let done = view.store.want(keys)
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
