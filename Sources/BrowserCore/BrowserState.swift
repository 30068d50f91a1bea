import FileSystemKit
import SystemKit
import ThumbnailKit

/// The whole state of the browser as a value: where the user is, what is shown, the mode, the
/// volumes and the jobs. It changes only through `apply(_:)`, which decides everything (keys in
/// the current mode, the clock, background results) and returns the effects the shell must
/// carry out; drawing reads it and never writes it.
public struct BrowserState: Sendable, Equatable {
    /// The folder, its listing, the cursor, the filter and the marks.
    public internal(set) var navigation: Navigation
    /// Where the user was before the current folder's listing began: Esc while a stuck volume is
    /// awaited goes back to it.
    var previousNavigation: Navigation?
    /// The current folder being listed again behind the listing shown (`reloadFolder`).
    var relisting: Relisting?
    /// What the user is doing: browsing, typing a filter or a name, or looking at an overlay.
    public internal(set) var mode: Mode = .browsing
    public internal(set) var showHidden = false
    public internal(set) var showExtensions = true
    public internal(set) var sort: SortMode = .name
    public internal(set) var view: ViewMode = .list
    public internal(set) var message: String?
    public internal(set) var layout = ScreenLayout()
    /// Numbers each listing; a result carrying another ticket answers a folder left since. Only grows.
    public internal(set) var ticket = 0
    /// The volume whose listing is awaited after it stopped answering (shown with a spinner).
    public internal(set) var waitingFor: String?
    /// A notice that stays until the user goes elsewhere ("photos was disconnected").
    public internal(set) var banner: String?
    /// The volumes and what they allow, the cursor in the volumes view.
    public internal(set) var volumeState = VolumesState()
    /// What `y`/`x` put aside, and what `U` can put back.
    public internal(set) var fileState = FilesState()
    /// Background jobs and the cursor in the jobs panel.
    public internal(set) var jobState = JobsState()
    /// The clock as last told by `.tick` (monotonic nanoseconds).
    public internal(set) var now: Int64 = 0
    /// When the current listing last delivered, or began.
    var listingProgressAt: Int64 = 0
    /// The sound the shell was last told to play.
    var soundPlaying: Sound?
    /// Turns while a volume is awaited.
    public internal(set) var spinnerFrame = 0

    /// Where Quick Look is inside the file it shows.
    public internal(set) var quickLook = QuickLookPosition()
    /// The folders visited, for `H` and `L`.
    public internal(set) var history: FolderHistory
    /// Bookmarks, their list's cursor, what the checks found.
    public internal(set) var bookmarkState = BookmarksState()
    /// `F`: the search under way, while finding.
    public internal(set) var find: FindState?
    /// The tabs open beside the one shown.
    public internal(set) var tabState = TabsState()
    /// The help's page, counted from its opening: ↓ and PgDn turn on, ↑ and PgUp back; the help
    /// view wraps it to the pages the screen's size gives (so no line count lives here).
    public internal(set) var helpPage = 0
    /// A listing silent this long shows "waiting for <volume>…".
    public static let stallNotice: Int64 = 300_000_000

    public init(folder: String, layout: ScreenLayout = ScreenLayout()) {
        self.navigation = Navigation(folder: folder)
        self.history = FolderHistory(start: folder)
        self.layout = layout
    }

    // MARK: Reading

    public var folder: String { navigation.folder }
    public var store: EntryStore { navigation.store }
    public var cursor: Int { navigation.cursor }
    public var top: Int { navigation.top }
    public var filter: String { navigation.filter }
    public var listingComplete: Bool { navigation.listingComplete }
    public var listingError: String? { navigation.listingError }
    public internal(set) var marked: Set<[UInt8]> {
        get { navigation.marked }
        set { navigation.marked = newValue }
    }

    /// The overlay open, if any.
    public internal(set) var overlay: Overlay? {
        get { if case .overlay(let overlay) = mode { return overlay } else { return nil } }
        set {
            if let newValue { mode = .overlay(newValue) } else if overlay != nil { mode = .browsing }
        }
    }

    /// The name being typed for `r` or `a`.
    public internal(set) var prompt: TextPrompt? {
        get { if case .prompt(let prompt) = mode { return prompt } else { return nil } }
        set {
            if let newValue { mode = .prompt(newValue) } else if prompt != nil { mode = .browsing }
        }
    }

    public var isTypingFilter: Bool { mode == .filtering }

    /// The entries shown: hidden files and the filter applied, sorted.
    public var entries: EntryList { EntryList(store: navigation.store, order: navigation.order) }
    /// The volume the current folder is on.
    public var currentVolume: Volume? { Volume.containing(folder, in: volumes.map(\.volume)) }

    public var selected: Entry? { navigation.order.indices.contains(cursor) ? entries[cursor] : nil }
    public var selectedPath: String? { selected.map { $0.path(in: folder) } }

    // MARK: Changing

    /// Starts listing the folder; the shell calls this once at start.
    public mutating func start() -> [BrowserEffect] { enter(folder, select: nil) + [.loadBookmarks] }

    /// What the user did: the status message goes (a message lasts until the user does
    /// something), then the action is reduced.
    @discardableResult
    public mutating func apply(_ action: BrowserAction) -> [BrowserEffect] {
        message = nil
        return reduce(action) + followUps()
    }

    /// What background work or the clock reported: the status message stays.
    @discardableResult
    public mutating func apply(_ result: BackgroundResult) -> [BrowserEffect] {
        reduce(result) + followUps()
    }

    /// One action, switched on the mode once. The terminal and giving up on a stuck volume mean
    /// the same in every mode; each mode passes on to the feature reducers it lets through.
    mutating func reduce(_ action: BrowserAction) -> [BrowserEffect] {
        switch action {
        case .key(let key, let command): return applyKey(key, command)
        case .screen(.redraw): return [.redraw]
        case .screen(.resize(let rows, let columns)):
            layout = layout.resized(rows: rows, columns: columns)
            scrollToCursor()
            return []
        case .volumes(.abandonWaiting): return abandonWaiting()
        case .volumes(.cancelConnect), .volumes(.recentServer): if case .volumes(let drives) = action { return reduceDrives(drives) }
        default: break
        }
        switch mode {
        case .browsing: return applyBrowsing(action)
        case .filtering:
            if case .filter(let filtering) = action { return reduce(filtering) }
            return applyBrowsing(action)
        case .prompt:
            if case .prompt(let typing) = action { return reduce(typing) }
            return applyBrowsing(action)
        case .awaitingKey:
            if case .places(let places) = action { return reduce(places) }
            return []
        case .finding:
            if case .find(let finding) = action { return reduce(finding) }
            return []
        case .overlay(let overlay) where overlay.isQuestion: return applyQuestion(overlay, action)
        case .overlay(let overlay): return applyPanel(overlay, action) ?? applyBrowsing(action)
        }
    }

    /// Work the state needs whatever the action was: the text of a file Quick Look shows, what
    /// the volume under the volumes view's cursor allows.
    private mutating func followUps() -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        // A position left over from another file (the listing moved the cursor) starts over.
        if overlay == .quickLook, let entry = selected, !entry.isDirectory, !quickLook.fits(entry) { resetQuickLook() }
        if overlay == .quickLook, quickLookContent == .text, let path = selectedPath {
            effects.append(.readText(path: path, line: quickLook.line, count: quickLookRows))
        }
        let sound = wantedSound
        if sound != soundPlaying {
            if soundPlaying != nil { effects.append(.stopSound) }
            if let sound { effects.append(.playSound(path: sound.path, seconds: quickLook.seconds)) }
            soundPlaying = sound
        }
        if overlay == .volumes, volumes.indices.contains(volumeCursor) {
            let volume = volumes[volumeCursor].volume
            if capabilities[volume.mountPoint] == nil, volumeState.asked.insert(volume.mountPoint).inserted {
                effects.append(.probeCapabilities(volume))
            }
        }
        return effects
    }

    /// Keys and clicks while browsing the list or the grid (and what other modes pass on): file
    /// operations and moves work under a panel too; going elsewhere is for the browser itself,
    /// not from under Quick Look or a panel.
    private mutating func applyBrowsing(_ action: BrowserAction) -> [BrowserEffect] {
        switch action {
        case .files(let files): return reduce(files)
        case .navigation(let move): return reduce(move)
        case .places(let places) where overlay == nil: return reduce(places)
        case .tabs(let tabs) where overlay == nil: return reduce(tabs)
        case .find(let finding) where overlay == nil: return reduce(finding)
        case .changes(let changes) where overlay == nil: return reduce(changes)
        case .display(let display): reduce(display)
        case .filter(let filtering): reduce(filtering)
        case .quickLook(.open):
            guard selected != nil else { break }
            mode = .overlay(.quickLook)
            resetQuickLook()
        case .screen(.help):
            mode = .overlay(.help)
            helpPage = 0
        case .screen(.closeOverlay): mode = .browsing
        case .screen(.reload):
            let effects = refreshFolder()
            message = "listed again"
            return effects
        case .screen(.quit): return [.quit(folder: folder)]
        case .jobs(.startBatch): return startBatch()
        case .jobs(.toggle):
            mode = .overlay(.jobs)
            jobCursor = max(0, jobs.count - 1)
        case .volumes(.toggle):
            mode = .overlay(.volumes)
            volumeState.drivesScannedAt = .min  // looked for at once
            if let current = currentVolume, let index = volumes.firstIndex(where: { $0.volume == current }) { volumeCursor = index }
        default: break  // meaningless outside their mode
        }
        return []
    }
}

/// An original an edit replaced, kept in the Trash, and the edited file now in its place.
public struct ReplacedOriginal: Sendable, Equatable {
    public let original: TrashCan.Item
    public let edited: String
}
