import BrowserCore
import FileSystemKit
import SystemKit

/// Carries out the state's effects that are background work: listing folders, thumbnail and
/// file jobs, probing volumes. Results come back through the inbox as actions.
final class EffectRunner {
    private let inbox: Inbox
    private let lister = DirectoryLister()
    private var listing: DirectoryLister.Listing?
    let jobs: JobRunner
    let fileJobs: FileJobRunner
    let edits: EditRunner
    private let bookmarks: BookmarkFile
    private lazy var finding = FindRunner(inbox: inbox)
    private let undoing: UndoRunner
    private let drives: DriveRunner

    init(inbox: Inbox, jobs: JobRunner, fileJobs: FileJobRunner, edits: EditRunner, bookmarks: BookmarkFile = BookmarkFile(), sshCommand: String? = nil) {
        self.inbox = inbox
        self.jobs = jobs
        self.fileJobs = fileJobs
        self.edits = edits
        self.bookmarks = bookmarks
        self.undoing = UndoRunner(inbox: inbox, journal: fileJobs.journal)
        self.drives = DriveRunner(inbox: inbox, sshCommand: sshCommand)
    }

    /// Runs `effect`; `volumes` are the mounted volumes as the state knows them.
    func perform(_ effect: BrowserEffect, volumes: [Volume]) {
        switch effect {
        case .list(let folder, let ticket): list(folder, ticket: ticket, volumes: volumes)
        case .cancelListing:
            listing?.cancel()
            listing = nil
        case .startBatch(let folder, let shared): jobs.start(folder: folder, shared: shared)
        case .cancelJob(let id):
            jobs.stop(id)
            fileJobs.cancel(id)
        case .stopJob(let id, let reason): jobs.stop(id, reason: reason)
        case .pauseJob(let id, let paused): fileJobs.pause(id, paused)
        case .fileOperation(let kind, let sources, let destination):
            fileJobs.start(kind, sources: sources, destination: destination, volumes: volumes)
        case .rename(let from, let to): fileJobs.rename(from, to: to, volume: Self.mountPoint(of: from, in: volumes))
        case .create(let path, let folder): fileJobs.create(path, folder: folder, volume: Self.mountPoint(of: path, in: volumes))
        case .restore(let items): fileJobs.restore(items, volumes: volumes)
        case .resolveConflict(let job, let choice, let all): fileJobs.answer(job, choice, applyToAll: all)
        case .probeCapabilities(let volume): probe(volume)
        case .saveEdit(let path, let list, let copy): edits.save(path: path, edits: list, copy: copy)
        case .cancelEdit: edits.cancel()
        case .restoreReplaced(let original, let edited): edits.restoreReplaced(original, edited: edited, volumes: volumes)
        case .find(let root, let showsHidden, let ticket): finding.start(root: root, showsHidden: showsHidden, ticket: ticket, volumes: volumes)
        case .findQuery(let query, let insideFiles, let ticket): finding.search(query, insideFiles: insideFiles, ticket: ticket)
        case .stopFind: finding.stop()
        case .undo: undoing.undo(volumes: volumes)
        case .redo: undoing.redo(volumes: volumes)
        case .applyBulkRename(let folder, let changes): undoing.rename(changes, in: folder, volumes: volumes)
        case .loadBookmarks: bookmarks.load(inbox: inbox)
        case .saveBookmarks(let list): bookmarks.save(list, inbox: inbox)
        case .checkBookmark(let bookmark): bookmarks.check(bookmark, volumes: volumes, inbox: inbox)
        case .checkBookmarks(let folders): bookmarks.check(folders, volumes: volumes, inbox: inbox)
        case .drives(let work): drives.perform(work)
        case .openFile, .readText, .redraw, .quit, .playSound, .stopSound, .forgetPictures, .editNames: break  // the app's own
        }
    }

    /// Quitting: a connection under way is given up and cleaned up first.
    func finishDrives() { drives.finish(seconds: 5) }

    /// The mount point of the volume `path` is on ("/" when none is known).
    static func mountPoint(of path: String, in volumes: [Volume]) -> String {
        Volume.containing(path, in: volumes)?.mountPoint ?? "/"
    }

    private func list(_ folder: String, ticket: Int, volumes: [Volume]) {
        listing?.cancel()
        let inbox = self.inbox
        let prefix = folder == "/" ? "/" : folder + "/"
        // Mount points directly inside the folder: listed as folders without a stat that could hang.
        let mounted = Set(volumes.map(\.mountPoint).filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }
            .map { Array($0.dropFirst(prefix.count).utf8) })
        listing = lister.list(folder, volume: Self.mountPoint(of: folder, in: volumes), mountPoints: mounted) { entries, complete, failure in
            inbox.post(.result(.listed(ticket: ticket, entries: entries, complete: failure != nil || complete)))
            guard let failure else { return }
            inbox.post(.result(failure.meansVolumeGone ? .listingLostVolume(ticket: ticket) : .listingFailed(ticket: ticket, reason: failure.message)))
        }
    }

    /// Asks a volume what it allows (reads only, no trial file).
    private func probe(_ volume: Volume) {
        let inbox = self.inbox
        VolumeIO.shared.run(volume: volume.mountPoint, deadline: 2, {
            VolumeCapabilities.probe(folder: volume.mountPoint, fsType: volume.fsType, trial: false)
        }, completion: { outcome in
            if case .done(let found) = outcome { inbox.post(.result(.capabilitiesFound(mountPoint: volume.mountPoint, found))) }
        })
    }
}
