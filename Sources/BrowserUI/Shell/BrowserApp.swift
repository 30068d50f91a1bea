import BrowserCore
import Dispatch
import FileSystemKit
import Places
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
    private(set) var state: BrowserState
    private let screen: any TerminalScreen
    private let inbox = Inbox()
    private var volumeMonitor: VolumeMonitor?
    let effects: EffectRunner
    private let parts: BrowserParts
    private let pictures: PictureService
    /// Quick Look's text, members and facts: the state's demand, carried out.
    let demand: DemandRunner
    let view: BrowserView
    private let graphics: GraphicsSession
    private let sound = SoundPlayer()
    private(set) var running = true
    private var needsDraw = true
    /// `QLBROWSE_TRACE=1`: picture requests and results go to the log file, for debugging.
    private let tracing = ProcessEnvironment.current.variables["QLBROWSE_TRACE"] != nil
    private var signalSources: [DispatchSourceSignal] = []

    /// The browser on the terminal (ncurses), from `parts`.
    public convenience init(options: BrowserOptions, parts: BrowserParts) {
        let graphics = GraphicsSession(requested: options.graphics, environment: ProcessEnvironment.current.variables,
                                       asksColours: options.lightTheme != nil)
        self.init(options: options, screen: CursesScreen(useColor: options.useColor), graphics: graphics, parts: parts)
    }

    /// The browser on any screen (a recording one in tests), with the terminal's `graphics` as found.
    init(options: BrowserOptions, screen: any TerminalScreen, graphics: GraphicsSession, parts: BrowserParts) {
        self.options = options
        self.parts = parts
        self.state = BrowserState(folder: options.folder, layout: ScreenLayout(previewPercent: options.previewPercent))
        self.screen = screen
        let inbox = self.inbox
        // Where the files are: the local file system made of the parts' backends unless the parts
        // name a place, and the remote places connected, each under its prefix (one router).
        let knownVolumes = KnownVolumes()
        let local = parts.place ?? LocalPlace(volumes: knownVolumes.current, thumbnails: ThumbnailGenerator(workers: parts.thumbnails, cache: parts.cache),
                                              previews: PreviewGenerator(workers: parts.previews), batchWorkers: parts.jobs)
        let place = PlaceRouter(local: local)
        for remote in parts.remotes { place.add(remote.place, under: remote.prefix, label: remote.label) }
        self.pictures = PictureService(place: place, inbox: inbox)
        // One scheduler for every background task; a job's progress is its status in the jobs panel.
        // The jobs panel reads the scheduler's list: a job waiting for a slot shows as queued.
        let feed = JobsFeed(inbox: inbox)
        let tasks = BackgroundTasks(limit: 32, perVolume: { _ in 8 }, perGroup: { $0 == UndoRunner.group ? 1 : .max }, observer: feed.heard)
        feed.follow(tasks)
        self.demand = DemandRunner(tasks: tasks, pictures: pictures, inbox: inbox)
        let fileJobs = FileJobRunner(inbox: inbox, scheduler: tasks, cache: parts.cache, verifiesCopies: options.verifiesCopies, journal: parts.journal,
                                     place: place)
        self.effects = EffectRunner(inbox: inbox, tasks: tasks, jobs: JobRunner(inbox: inbox, scheduler: tasks, place: place, workers: parts.jobs),
                                    fileJobs: fileJobs, edits: EditRunner(inbox: inbox, scheduler: tasks, workers: parts.edits, isLocal: place.isThisComputer, place: place),
                                    place: place, knownVolumes: knownVolumes, sshCommand: options.sshCommand, remoteCommand: options.remoteCommand,
                                    forcesSFTP: options.forcesSFTP, sftpPictures: ThumbnailGenerator(workers: parts.thumbnails, cache: parts.cache))
        self.graphics = graphics
        let drawer = PictureDrawer(driver: nil, cell: TerminalProbe.cellSize(), encoder: PictureEncoder(inbox: inbox))
        let theme = graphics.facts.hasLightBackground == true ? options.lightTheme ?? options.theme : options.theme
        self.view = BrowserView(screen: screen, theme: theme, lsColors: options.lsColors, keys: options.keys, drawer: drawer, placeLabel: place.label(for:))
    }

    /// Runs until the user quits; returns the folder the user was in.
    public func run() -> String {
        TerminalGuard.install()
        let terminfoNote = begin()
        StandardStreamTrace.line("qlbrowse: " + graphics.description)
        if let terminfoNote { StandardStreamTrace.line("qlbrowse: " + terminfoNote) }
        defer { shutDown() }
        watchSignals()
        let inbox = self.inbox
        let monitor = VolumeMonitor { statuses in inbox.post(.result(.volumesChanged(statuses))) }
        volumeMonitor = monitor
        defer { monitor.stop() }
        open(volumes: monitor.volumes, note: terminfoNote)
        while running {
            turn()
            guard running else { break }
            waitForInput(fd: 0)
        }
        return state.folder
    }

    /// Takes the terminal and chooses how pictures are drawn; returns terminfo's note, if any.
    func begin() -> String? {
        let terminfoNote = screen.start(preferring: graphics.facts.textTerm)
        // Keys pressed while the terminal was asked what it is were read with its answers.
        screen.giveBack(graphics.facts.typedAhead)
        chooseGraphics(afterResize: false)
        return terminfoNote
    }

    /// The first listing, on the volumes as mounted now (read before it, so that it runs on the right volume).
    func open(volumes: [VolumeMonitor.Status], note: String?) {
        apply(.volumesChanged(volumes))
        apply(.screen(.resize(rows: screen.rows, columns: screen.columns)))
        perform(state.start())
        if options.startInVolumes { apply(.volumes(.toggle)) }
        if let note { apply(.showMessage(note)) }
    }

    /// One turn of the loop: the clock, the background's messages and the keys typed go to the
    /// state; then, if anything changed, the screen is drawn and its demand reconciled.
    func turn() {
        let wasWaiting = state.waitingFor != nil
        apply(.tick(now: parts.time.now()))
        if wasWaiting || state.waitingFor != nil || state.quickLook.playing { needsDraw = true }
        for message in inbox.drain() { handle(message); needsDraw = true }
        while running, let input = screen.readKey() {
            handle(input)
            needsDraw = true
        }
        guard running, needsDraw else { return }
        view.draw(state)
        requestPictures()
        needsDraw = false
    }

    /// Sleeps until a key (on `fd`) or a message from the background, or the next tick is due.
    func waitForInput(fd: Int32) {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: inbox.wakeRead, events: Int16(POLLIN), revents: 0)]
        // While a listing is under way, wake often: to notice a stall, and to turn the spinner;
        // while something plays, for each frame.
        _ = poll(&fds, 2, state.quickLook.playing ? 40 : state.listingComplete ? 250 : 100)
    }

    /// Takes the pictures down, gives the terminal back, and lets file jobs remove their temporaries.
    private func shutDown() {
        sound.stop()
        view.placements.clearAll(freeing: true)
        if tracing { StandardStreamTrace.line("pictures: \(view.placements.bytesWritten) bytes written") }
        screen.stop()
        graphics.restore()
        let jobs = effects.jobs, edits = effects.edits, workers = parts.shutdown
        // Quitting (q, Ctrl-C) cancels file jobs and an edit being saved, and gives them a moment
        // to remove their temporaries before the process goes: nothing partial is left behind.
        effects.fileJobs.cancelAll()
        effects.finishDrives()
        edits.cancel()
        effects.fileJobs.waitUntilIdle(seconds: 5)
        edits.waitUntilIdle(seconds: 5)
        effects.bookmarks.waitUntilSaved(seconds: 2)
        effects.disconnectRemotes()
        Task {
            await jobs.shutdown()
            await workers()
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
        case .click, .drag, .release:
            // On a rectangle over a picture (a crop), the mouse moves it; elsewhere a click selects.
            if let action = PicturePointer.action(for: input, state: state, placed: view.drawer.placed) { apply(action) }
            else if case .click(let row, let column) = input { apply(.navigation(.click(row: row, column: column))) }
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
            tellPictureSize()
        case .pictureFailed(let key, let reason):
            if tracing { StandardStreamTrace.line("failed \(key.path) \(reason)") }
            view.store.storeFailure(reason, for: key)
        case .textPage(let page): view.store.storeText(page)
        case .members(let page): view.store.storeMembers(page)
        case .needAnswered(let need, let task):
            demand.answered(need, task: task)
            // Lines read while the user scrolled on: the next window is asked at once.
            reconcileDemand()
        case .encoded(let id, let picture):
            if tracing { StandardStreamTrace.line("encoded \(id) \(picture.columns)x\(picture.rows) \(picture.byteCount) bytes") }
            view.drawer.storeEncoded(picture, id: id)
        case .interrupt: running = false
        }
    }

    private func apply(_ action: BrowserAction) {
        perform(state.apply(action))
        tellPictureSize()
    }

    /// Quick Look's picture's size (its dimensions fact), which a crop works in: it may have
    /// come with the preview pane's thumbnail, before Quick Look opened.
    private func tellPictureSize() {
        guard state.overlay == .quickLook, case .picture(let picture) = state.quickLook, picture.size == nil, let path = state.selectedPath,
              let slot = PictureSlots(state: state, cell: view.drawer.cell).quickLook(state.cursor),
              let size = FileFact.dimensions(in: (view.store.pictures[slot.key.whole] ?? view.store.pictures[slot.key])?.facts ?? []) else { return }
        apply(.quickLookFacts(path: path, QuickLookFacts(pictureSize: size)))
    }

    private func apply(_ result: BackgroundResult) { perform(state.apply(result)) }

    private func perform(_ list: [BrowserEffect]) {
        for effect in list {
            switch effect {
            case .quit: running = false
            case .openFile(let path, let kind): open(path, kind: kind)
            case .redraw: view.repaintAll()
            case .readText: reconcileDemand()
            case .playSound(let path, let seconds):
                if !sound.play(path, from: seconds) { apply(.showMessage("no sound: install ffmpeg (ffplay) or mpv to hear it")) }
            case .stopSound: sound.stop()
            case .editNames(let folder, let names): editNames(names, in: folder)
            case .forgetPictures(let path):
                // The file changed under its name: its pictures, encodings and facts are asked again.
                view.forgetPictures(of: path)
                demand.forgetAnswers()
            default: effects.perform(effect, volumes: state.volumes.map(\.volume), folder: state.folder)
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

    /// Starts what the screen's demand needs and nothing else: Quick Look's text, members and
    /// facts (through the demand runner), and the pictures on screen and ahead.
    private func reconcileDemand() {
        demand.reconcile(ScreenDemand.of(state), store: view.store)
    }

    private func requestPictures() {
        let wanted = ScreenDemand.of(state)
        demand.reconcile(wanted, store: view.store)
        var keys = PictureSlots(state: state, cell: view.drawer.cell).wanted
        let done = view.store.want(keys)
        // Nothing is asked of a stick or share that is not answering: its files keep their icons.
        keys = keys.filter { wanted.mayAsk(about: $0.path) }
        if tracing { StandardStreamTrace.line("want \(keys.map(\.path)) done \(done.count)") }
        pictures.want(keys, done: done)
    }
}
