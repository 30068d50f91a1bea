import FileSystemKit
import SystemKit

/// The overlays that are panels: Quick Look, help, the volumes view, the jobs panel, and the
/// question `T` asks on a stick or a share.
extension BrowserState {
    /// Actions in a panel; nil for what the panel leaves to the browser underneath.
    mutating func applyPanel(_ overlay: Overlay, _ action: BrowserAction) -> [BrowserEffect]? {
        switch overlay {
        case .volumes: return applyInVolumes(action)
        case .jobs: return applyInJobs(action)
        case .bookmarks: return applyInBookmarks(action)
        case .confirmBatch(let folder): return applyInConfirmBatch(action, folder: folder)
        case .quickLook:
            if case .quickLook(let looking) = action, looking != .open { return reduce(looking) }
            if case .edit(let editing) = action { return reduce(editing) }
        case .help:
            // The help turns its pages; the list underneath stays where it is.
            switch action {
            case .navigation(.moveDown), .navigation(.moveRight), .navigation(.pageDown): helpPage += 1; return []
            case .navigation(.moveUp), .navigation(.moveLeft), .navigation(.pageUp): helpPage -= 1; return []
            case .navigation(.home): helpPage = 0; return []
            default: break
            }
        case .confirmDelete, .conflict, .bulkRenamePlan: return applyQuestion(overlay, action)
        }
        switch action {
        case .screen(.closeOverlay), .quickLook(.open), .screen(.quit):
            mode = .browsing
        case .navigation(.moveLeft), .navigation(.moveUp), .navigation(.moveRight), .navigation(.moveDown):
            guard overlay == .quickLook else { return nil }
            // Another file would drop the edit unsaved.
            guard quickLook.edit == nil else {
                message = "Enter saves the edit, Esc leaves it"
                return []
            }
            switch action {
            case .navigation(.moveRight), .navigation(.moveDown): moveCursor(to: cursor + 1)
            default: moveCursor(to: cursor - 1)
            }
            resetQuickLook()
        case .navigation(.scroll), .navigation(.click):
            // The wheel or a click would select another file under Quick Look and drop the edit.
            guard overlay == .quickLook, quickLook.edit != nil else { return nil }
            message = "Enter saves the edit, Esc leaves it"
        case .screen(.help):
            mode = overlay == .help ? .browsing : .overlay(.help)
            helpPage = 0
        default:
            return nil
        }
        return []
    }

    /// Where a panel's cursor goes for a move (↓ → ↑ ← g G) among `count` lines; nil for other actions.
    static func listCursor(_ cursor: Int, count: Int, after action: BrowserAction) -> Int? {
        guard case .navigation(let move) = action else { return nil }
        let last = max(0, count - 1)
        switch move {
        case .moveDown, .moveRight: return min(cursor + 1, last)
        case .moveUp, .moveLeft: return max(cursor - 1, 0)
        case .home: return 0
        case .end: return last
        default: return nil
        }
    }

    private mutating func applyInVolumes(_ action: BrowserAction) -> [BrowserEffect]? {
        if let moved = Self.listCursor(volumeCursor, count: volumes.count + volumeState.drives.count, after: action) {
            volumeCursor = moved
            return []
        }
        switch action {
        case .screen(.closeOverlay), .volumes(.toggle), .screen(.quit), .navigation(.parent): mode = .browsing
        case .volumes(.eject), .volumes(.connect): if case .volumes(let drives) = action { return reduceDrives(drives) }
        case .navigation(.open):
            guard volumes.indices.contains(volumeCursor) else { return mountSelectedDrive() }
            let volume = volumes[volumeCursor]
            mode = .browsing
            if !volume.isResponding { message = "\(volume.volume.label) is not responding; opening it anyway" }
            return enter(volume.volume.mountPoint, select: nil)
        default: return nil
        }
        return []
    }

    private mutating func applyInJobs(_ action: BrowserAction) -> [BrowserEffect]? {
        let job = jobs.indices.contains(jobCursor) ? jobs[jobCursor] : nil
        if let moved = Self.listCursor(jobCursor, count: jobs.count, after: action) {
            jobCursor = moved
            return []
        }
        switch action {
        case .screen(.closeOverlay), .jobs(.toggle), .screen(.quit), .navigation(.parent): mode = .browsing
        case .jobs(.cancel):
            guard let job, job.phase.isActive else { return [] }
            return [.cancelJob(id: job.id)]
        case .jobs(.togglePause):
            guard let job, job.phase.isActive, job.kind.isFileOperation else { return [] }
            return [.pauseJob(id: job.id, paused: !job.isPaused)]
        case .navigation(.open):
            // A stopped thumbnail job starts again; what it cached already is skipped.
            guard let job, !job.phase.isActive, job.kind == .thumbnails else { return [] }
            message = "resuming \(Self.lastComponent(job.folder))"
            return [.startBatch(folder: job.folder, shared: job.writesShared)]
        default: return nil
        }
        return []
    }

    private mutating func applyInConfirmBatch(_ action: BrowserAction, folder: String) -> [BrowserEffect]? {
        switch action {
        case .jobs(.confirmBatch(let shared)):
            mode = .browsing
            message = "thumbnailing \(Self.lastComponent(folder))" + (shared ? " (also into .sh_thumbnails)" : "") + " · J shows jobs"
            return [.startBatch(folder: folder, shared: shared)]
        case .screen(.closeOverlay), .screen(.quit):
            mode = .browsing
            return []
        default: return []
        }
    }

    /// `T`: the folder under the cursor, or the current one. On a stick or a share, first ask
    /// whether thumbnails should also go into the shared `.sh_thumbnails` there.
    mutating func startBatch() -> [BrowserEffect] {
        let folder = selected.flatMap { $0.isDirectory ? $0.path(in: self.folder) : nil } ?? self.folder
        if let kind = Volume.containing(folder, in: volumes.map(\.volume))?.kind, kind == .removable || kind == .network {
            mode = .overlay(.confirmBatch(folder: folder))
            return []
        }
        message = "thumbnailing \(Self.lastComponent(folder)) · J shows jobs"
        return [.startBatch(folder: folder, shared: false)]
    }

    public static func lastComponent(_ path: String) -> String { FileOperation.name(path) }
}
