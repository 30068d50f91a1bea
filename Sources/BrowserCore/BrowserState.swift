import FileSystemKit
import ThumbnailKit

/// The whole state of the browser as a value: the folder and its entries, the cursor, the view,
/// the filter, the overlay. It changes only through `apply(_:)`, which returns the effects the
/// UI must carry out; drawing reads it and never writes it.
public struct BrowserState: Sendable, Equatable {
    public private(set) var folder: String
    /// Every entry listed so far, in listing order, packed.
    public private(set) var store = EntryStore()
    /// Indices into `store` of the entries shown (hidden files and the filter applied), sorted.
    private var order: [EntryHandle] = []
    public private(set) var cursor = 0
    /// The first list row (list view) or grid row (grid view) on screen.
    public private(set) var top = 0
    public private(set) var showHidden = false
    public private(set) var showExtensions = true
    public private(set) var sort: SortMode = .name
    public private(set) var view: ViewMode = .list
    public private(set) var filter = ""
    public private(set) var isTypingFilter = false
    public internal(set) var overlay: Overlay?
    public private(set) var listingComplete = false
    public private(set) var listingError: String?
    public internal(set) var message: String?
    public private(set) var layout = ScreenLayout()
    public private(set) var ticket = 0
    /// Every mounted volume, as the monitor last saw it.
    public private(set) var volumes: [VolumeMonitor.Status] = []
    /// The cursor in the volumes view.
    public private(set) var volumeCursor = 0
    /// The volume whose listing is awaited after it stopped answering (shown with a spinner).
    public private(set) var waitingFor: String?
    /// A notice that stays until the user goes elsewhere ("photos was disconnected").
    public private(set) var banner: String?
    /// What each volume allows (by mount point), once probed.
    public private(set) var capabilities: [String: VolumeCapabilities] = [:]
    /// Names marked in the current folder (`m`).
    public internal(set) var marked: Set<[UInt8]> = []
    /// What `y`/`x` put aside.
    public internal(set) var clipboard: Clipboard?
    /// The name being typed for `r` or `a`.
    public internal(set) var prompt: TextPrompt?
    /// What the last trash job moved away, for `U`.
    public internal(set) var lastTrashed: [TrashCan.Item] = []
    /// Background jobs, oldest first.
    public private(set) var jobs: [JobStatus] = []
    /// The cursor in the jobs panel.
    public private(set) var jobCursor = 0
    /// The name to put the cursor on when the listing arrives (the folder we came up from).
    private var pendingSelection: [UInt8]?
    /// Whether the cursor is on an entry the user chose (by moving, or coming up from a folder); until
    /// then it stays on the first row while a listing streams in, as a user opening a folder expects.
    private var cursorFollowsEntry = false
    /// Whether the user jumped to the end (`G`) while the listing was still arriving: the cursor
    /// then stays on the last entry as more come in.
    private var cursorFollowsEnd = false

    public init(folder: String, layout: ScreenLayout = ScreenLayout()) {
        self.folder = folder
        self.layout = layout
    }

    /// The entries shown: hidden files and the filter applied, sorted.
    public var entries: EntryList { EntryList(store: store, order: order) }
    /// The volume the current folder is on.
    public var currentVolume: Volume? { Volume.containing(folder, in: volumes.map(\.volume)) }

    public var selected: Entry? { order.indices.contains(cursor) ? entries[cursor] : nil }
    public var selectedPath: String? { selected.map { $0.path(in: folder) } }

    /// Starts listing the folder; the UI calls this once at start.
    public mutating func start() -> [BrowserEffect] { enter(folder, select: nil) }

    @discardableResult
    public mutating func apply(_ action: BrowserAction) -> [BrowserEffect] {
        // A message lasts until the user does something; background news does not wipe it.
        if action.isFromUser { message = nil }
        if isTypingFilter, let effects = applyFilterTyping(action) { return effects }
        if overlay != nil, let effects = applyInFileOverlay(action) { return effects }
        if let effects = applyFileOperation(action) { return effects }
        if overlay != nil, let effects = applyInOverlay(action) { return effects }
        switch action {
        case .moveDown, .moveUp, .moveLeft, .moveRight, .pageDown, .pageUp, .home, .end, .click, .scroll:
            cursorFollowsEntry = true
            cursorFollowsEnd = action == .end
        default: break
        }
        switch action {
        case .moveDown(let count): moveCursor(to: cursor + count)
        case .moveUp(let count): moveCursor(to: cursor - count)
        case .moveLeft: if view == .grid { moveCursor(to: cursor - 1) } else { return parent() }
        case .moveRight: if view == .grid { moveCursor(to: cursor + 1) } else { return open() }
        case .pageDown: moveCursor(to: cursor + layout.pageSize(view))
        case .pageUp: moveCursor(to: cursor - layout.pageSize(view))
        case .home: moveCursor(to: 0)
        case .end: moveCursor(to: order.count - 1)
        case .open: return open()
        case .parent: return parent()
        case .toggleHidden:
            showHidden.toggle()
            message = showHidden ? "showing hidden files" : "hiding hidden files"
            refresh(keeping: selected?.nameBytes)
        case .cycleSort:
            sort = sort.next
            message = "sorted by \(sort.rawValue)"
            refresh(keeping: selected?.nameBytes)
        case .toggleView:
            view = view == .list ? .grid : .list
            top = 0
            scrollToCursor()
        case .toggleExtensions: showExtensions.toggle()
        case .startFilter:
            isTypingFilter = true
        case .quickLook:
            if selected != nil { overlay = .quickLook }
        case .help: overlay = .help
        case .closeOverlay: overlay = nil
        case .quit: return [.quit(folder: folder)]
        case .resize(let rows, let columns):
            layout = layout.resized(rows: rows, columns: columns)
            scrollToCursor()
        case .click(let row, let column): return click(row: row, column: column)
        case .scroll(let delta): moveCursor(to: cursor + delta * (view == .grid ? layout.gridColumns : 3))
        case .listed(let ticket, let batch, let complete):
            guard ticket == self.ticket else { return [] }  // an old folder's late answer
            waitingFor = nil
            let firstChunk = store.chunkCount
            let repacked = store.append(contentsOf: batch)
            listingComplete = complete
            if repacked { refresh(keeping: selected?.nameBytes) } else { merge(chunks: firstChunk..<store.chunkCount) }
            if let name = pendingSelection, let index = store.position(of: name, in: order) {
                moveCursor(to: index)
                pendingSelection = nil
                cursorFollowsEntry = true
            }
            if complete { pendingSelection = nil }
        case .listingFailed(let ticket, let reason):
            guard ticket == self.ticket else { return [] }
            waitingFor = nil
            listingError = reason
            listingComplete = true
            message = reason
        case .showMessage(let text): message = text
        case .volumesChanged(let statuses):
            volumes = statuses
            volumeCursor = min(volumeCursor, max(0, statuses.count - 1))
        case .listingStalled(let ticket, let volume):
            if ticket == self.ticket && !listingComplete { waitingFor = volume }
        case .volumeGone(let label, let fallback):
            let effects = enter(fallback, select: nil)
            banner = "\(label) was disconnected"
            overlay = nil
            return effects
        case .toggleMark, .invertMarks, .clearMarks, .copyMarked, .cutMarked, .paste, .startRename, .startCreate, .promptInput, .promptBackspace,
             .promptMove, .promptAccept, .promptCancel, .trashMarked, .deleteMarked, .confirmDelete, .restoreTrashed, .conflictAsked,
             .answerConflict, .trashed, .togglePauseJob, .reload:
            break  // handled by applyFileOperation, or meaningless outside their overlay
        case .startBatch: return startBatch()
        case .confirmBatch: break
        case .capabilitiesFound(let mountPoint, let found): capabilities[mountPoint] = found
        case .toggleJobs:
            overlay = .jobs
            jobCursor = max(0, jobs.count - 1)
        case .cancelJob: break
        case .jobChanged(let job):
            if let index = jobs.firstIndex(where: { $0.id == job.id }) { jobs[index] = job } else { jobs.append(job) }
        case .toggleVolumes:
            overlay = .volumes
            if let current = currentVolume, let index = volumes.firstIndex(where: { $0.volume == current }) { volumeCursor = index }
        case .filterCancel:
            filter = ""
            refresh(keeping: selected?.nameBytes)
        case .filterInput, .filterBackspace, .filterAccept: break
        }
        return []
    }

    // MARK: Navigation

    private mutating func open() -> [BrowserEffect] {
        guard let entry = selected else { return [] }
        let path = entry.path(in: folder)
        if entry.isDirectory { return enter(path, select: nil) }
        return [.openFile(path: path, kind: entry.kind.rawValue)]
    }

    private mutating func parent() -> [BrowserEffect] {
        guard folder != "/" else { return [] }
        let slash = folder.lastIndex(of: "/")!
        let name = Array(folder[folder.index(after: slash)...].utf8)
        let up = slash == folder.startIndex ? "/" : String(folder[..<slash])
        return enter(up, select: name)
    }

    private mutating func enter(_ path: String, select name: [UInt8]?) -> [BrowserEffect] {
        folder = path
        ticket += 1
        store = EntryStore()
        order = []
        cursor = 0
        top = 0
        filter = ""
        isTypingFilter = false
        listingComplete = false
        listingError = nil
        pendingSelection = name
        marked = []
        prompt = nil
        waitingFor = nil
        banner = nil
        cursorFollowsEntry = false
        cursorFollowsEnd = false
        return [.list(folder: path, ticket: ticket)]
    }

    private mutating func click(row: Int, column: Int) -> [BrowserEffect] {
        let bodyRow = row - layout.bodyTop
        guard bodyRow >= 0, bodyRow < layout.bodyRows else { return [] }
        let index: Int
        if view == .list {
            guard column < layout.listWidth else { return [] }
            index = top + bodyRow
        } else {
            let gridRow = bodyRow / layout.tileHeight, gridColumn = column / layout.tileWidth
            guard gridColumn < layout.gridColumns else { return [] }
            index = (top + gridRow) * layout.gridColumns + gridColumn
        }
        guard order.indices.contains(index) else { return [] }
        moveCursor(to: index)
        return []
    }

    // MARK: Filter

    private mutating func applyFilterTyping(_ action: BrowserAction) -> [BrowserEffect]? {
        switch action {
        case .filterInput(let text):
            filter += text
        case .filterBackspace:
            if filter.isEmpty { isTypingFilter = false } else { filter.removeLast() }
        case .filterAccept:
            isTypingFilter = false
            return []
        case .filterCancel:
            isTypingFilter = false
            filter = ""
        default:
            return nil
        }
        refresh(keeping: nil)
        cursor = 0
        top = 0
        return []
    }

    private mutating func applyInOverlay(_ action: BrowserAction) -> [BrowserEffect]? {
        if overlay == .volumes, action.isFromUser { return applyInVolumes(action) }
        if overlay == .jobs, action.isFromUser { return applyInJobs(action) }
        if case .confirmBatch(let folder) = overlay { return applyInConfirmBatch(action, folder: folder) }
        switch action {
        case .closeOverlay, .quickLook:
            overlay = nil
            return []
        case .moveLeft, .moveUp(_):
            if overlay == .quickLook { moveCursor(to: cursor - 1) }
            return []
        case .moveRight, .moveDown(_):
            if overlay == .quickLook { moveCursor(to: cursor + 1) }
            return []
        case .help:
            overlay = overlay == .help ? nil : .help
            return []
        case .quit:
            overlay = nil
            return []
        default:
            return nil
        }
    }

    private mutating func applyInVolumes(_ action: BrowserAction) -> [BrowserEffect]? {
        let shown = volumes.count
        switch action {
        case .moveDown(_), .moveRight: volumeCursor = min(volumeCursor + 1, max(0, shown - 1))
        case .moveUp(_), .moveLeft: volumeCursor = max(volumeCursor - 1, 0)
        case .home: volumeCursor = 0
        case .end: volumeCursor = max(0, shown - 1)
        case .closeOverlay, .toggleVolumes, .quit, .parent: overlay = nil
        case .open:
            guard volumes.indices.contains(volumeCursor) else { return [] }
            let volume = volumes[volumeCursor]
            overlay = nil
            if !volume.isResponding { message = "\(volume.volume.label) is not responding; opening it anyway" }
            return enter(volume.volume.mountPoint, select: nil)
        default: return nil
        }
        return []
    }

    private mutating func applyInJobs(_ action: BrowserAction) -> [BrowserEffect]? {
        switch action {
        case .moveDown(_), .moveRight: jobCursor = min(jobCursor + 1, max(0, jobs.count - 1))
        case .moveUp(_), .moveLeft: jobCursor = max(jobCursor - 1, 0)
        case .closeOverlay, .toggleJobs, .quit, .parent: overlay = nil
        case .cancelJob:
            guard jobs.indices.contains(jobCursor), jobs[jobCursor].phase.isActive else { return [] }
            return [.cancelJob(id: jobs[jobCursor].id)]
        case .togglePauseJob:
            guard jobs.indices.contains(jobCursor), jobs[jobCursor].phase.isActive, jobs[jobCursor].kind != "thumbnails" else { return [] }
            return [.pauseJob(id: jobs[jobCursor].id, paused: !jobs[jobCursor].isPaused)]
        case .open:
            // A stopped thumbnail job starts again; what it cached already is skipped.
            guard jobs.indices.contains(jobCursor), !jobs[jobCursor].phase.isActive, jobs[jobCursor].kind == "thumbnails" else { return [] }
            message = "resuming \(Self.lastComponent(jobs[jobCursor].folder))"
            return [.startBatch(folder: jobs[jobCursor].folder, shared: jobs[jobCursor].writesShared)]
        default: return nil
        }
        return []
    }

    private mutating func applyInConfirmBatch(_ action: BrowserAction, folder: String) -> [BrowserEffect]? {
        switch action {
        case .confirmBatch(let shared):
            overlay = nil
            message = "thumbnailing \(Self.lastComponent(folder))" + (shared ? " (also into .sh_thumbnails)" : "") + " · J shows jobs"
            return [.startBatch(folder: folder, shared: shared)]
        case .closeOverlay, .quit:
            overlay = nil
            return []
        default: return []
        }
    }

    /// `T`: the folder under the cursor, or the current one. On a stick or a share, first ask
    /// whether thumbnails should also go into the shared `.sh_thumbnails` there.
    private mutating func startBatch() -> [BrowserEffect] {
        let folder = selected.flatMap { $0.isDirectory ? $0.path(in: self.folder) : nil } ?? self.folder
        if let kind = Volume.containing(folder, in: volumes.map(\.volume))?.kind, kind == .removable || kind == .network {
            overlay = .confirmBatch(folder: folder)
            return []
        }
        message = "thumbnailing \(Self.lastComponent(folder)) · J shows jobs"
        return [.startBatch(folder: folder, shared: false)]
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    // MARK: Derived entries

    /// Recomputes the shown order from the store, keeping the cursor on `name` when it is still there.
    private mutating func refresh(keeping name: [UInt8]?) {
        order = store.shownHandles(inChunks: 0..<store.chunkCount, showHidden: showHidden, needle: Array(filter.lowercased().utf8))
        store.sort(&order, by: sort)
        if let name, let index = store.position(of: name, in: order) {
            cursor = index
        }
        moveCursor(to: cursor)
    }

    /// Adds the store's new chunks (a listing batch) to the shown order by merging (no full re-sort
    /// per batch), keeping the cursor on the entry it was on.
    private mutating func merge(chunks: Range<Int>) {
        var incoming = store.shownHandles(inChunks: chunks, showHidden: showHidden, needle: Array(filter.lowercased().utf8))
        store.sort(&incoming, by: sort)
        let merged = store.merge(incoming, into: order, by: sort, cursor: cursor)
        order = merged.order
        moveCursor(to: cursorFollowsEnd ? order.count - 1 : cursorFollowsEntry ? merged.cursor : cursor)
    }

    mutating func moveCursorBy(_ offset: Int) { moveCursor(to: cursor + offset) }

    /// Lists the folder again, the cursor going back to `name` when it is still there.
    mutating func reloadFolder(select name: [UInt8]?) -> [BrowserEffect] {
        let keepOverlay = overlay, keepBanner = banner
        let effects = enter(folder, select: name)
        overlay = keepOverlay
        banner = keepBanner
        return effects
    }

    private mutating func moveCursor(to index: Int) {
        cursor = order.isEmpty ? 0 : min(max(index, 0), order.count - 1)
        scrollToCursor()
    }

    /// Keeps the cursor on screen, scrolling as little as possible.
    private mutating func scrollToCursor() {
        if view == .list {
            let rows = layout.bodyRows
            if cursor < top { top = cursor }
            if cursor >= top + rows { top = cursor - rows + 1 }
            top = max(0, min(top, max(0, order.count - rows)))
        } else {
            let row = cursor / layout.gridColumns
            if row < top { top = row }
            if row >= top + layout.gridRows { top = row - layout.gridRows + 1 }
            top = max(0, top)
        }
    }

    /// The indices of the entries on screen.
    public var visibleRange: Range<Int> {
        let first = view == .list ? top : top * layout.gridColumns
        let count = layout.pageSize(view)
        return min(first, order.count)..<min(first + count, order.count)
    }
}
