import BrowserCore
import FileSystemKit
import Places
import Synchronization
import SystemKit
import ThumbnailKit

/// The browser's one scheduler: every background task, its progress a job's status.
typealias BackgroundTasks = Scheduler<JobStatus>

/// Carries out the state's effects that are background work: listing folders, thumbnail and
/// file jobs, probing volumes. Each runner is a thin user of the one scheduler (`tasks`).
/// Results come back through the inbox as actions. Files are reached through `place` (the
/// local file system unless another is given).
final class EffectRunner {
    private let inbox: Inbox
    let tasks: BackgroundTasks
    /// The volumes as the state last gave them, for the local place (which volume a path is on).
    private let knownVolumes: KnownVolumes
    let place: PlaceRouter
    private let listing: FolderListing
    let jobs: JobRunner
    let fileJobs: FileJobRunner
    let edits: EditRunner
    let bookmarks: BookmarkFile
    private lazy var finding = FindRunner(inbox: inbox, scheduler: tasks, place: place)
    private let undoing: UndoRunner
    private let drives: DriveRunner

    init(inbox: Inbox, tasks: BackgroundTasks, jobs: JobRunner, fileJobs: FileJobRunner, edits: EditRunner, bookmarks: BookmarkFile = BookmarkFile(),
         place: PlaceRouter, knownVolumes: KnownVolumes, sshCommand: String? = nil, remoteCommand: String? = nil,
         forcesSFTP: Bool = false, sftpPictures: ThumbnailGenerator? = nil) {
        self.inbox = inbox
        self.tasks = tasks
        self.knownVolumes = knownVolumes
        self.place = place
        self.listing = FolderListing(place: self.place, inbox: inbox)
        self.jobs = jobs
        self.fileJobs = fileJobs
        self.edits = edits
        self.bookmarks = bookmarks
        self.undoing = UndoRunner(inbox: inbox, scheduler: tasks, cache: fileJobs.cache, journal: fileJobs.journal, router: place)
        self.drives = DriveRunner(inbox: inbox, sshCommand: sshCommand, remotes: RemoteConnector(router: place, sshCommand: sshCommand, remoteCommand: remoteCommand,
                                                                                                  forcesSFTP: forcesSFTP, sftpPictures: sftpPictures))
    }

    /// Runs `effect`; `volumes` are the mounted volumes as the state knows them, `folder` the one
    /// shown.
    func perform(_ effect: BrowserEffect, volumes: [Volume], folder: String = "/") {
        knownVolumes.list.withLock { $0 = volumes }
        switch effect {
        case .list(let folder, let ticket): listing.list(folder, ticket: ticket)
        case .cancelListing: listing.cancel()
        case .startBatch(let folder, let shared): jobs.start(folder: folder, shared: shared, volume: Self.mountPoint(of: folder, in: volumes))
        case .cancelJob(let id):
            jobs.stop(id)
            fileJobs.cancel(id)
        case .stopJob(let id, let reason): jobs.stop(id, reason: reason)
        case .pauseJob(let id, let paused): fileJobs.pause(id, paused)
        case .fileOperation(let kind, let sources, let destination):
            // A move whose originals could only be deleted for good (no trash there) asks first.
            if kind == .move, let destination, let from = place.placeWithoutTrash(movingFrom: sources, to: destination) {
                inbox.post(.result(.moveNeedsYes(sources: sources, destination: destination, place: from)))
            } else {
                fileJobs.start(kind, sources: sources, destination: destination, volumes: volumes)
            }
        case .moveDeletingSources(let sources, let destination):
            fileJobs.start(.move, sources: sources, destination: destination, volumes: volumes, deletesSourcesForGood: true)
        case .rename(let from, let to): fileJobs.rename(from, to: to, volume: Self.mountPoint(of: from, in: volumes))
        case .create(let path, let folder): fileJobs.create(path, folder: folder, volume: Self.mountPoint(of: path, in: volumes))
        case .restore(let items): fileJobs.restore(items, volumes: volumes)
        case .resolveConflict(let job, let choice, let all): fileJobs.answer(job, choice, applyToAll: all)
        case .probeCapabilities(let volume): probe(volume)
        case .saveEdit(let path, let list, let copy): edits.save(path: path, edits: list, copy: copy, volume: Self.mountPoint(of: path, in: volumes))
        case .cancelEdit: edits.cancel()
        case .restoreReplaced(let original, let edited): edits.restoreReplaced(original, edited: edited, volumes: volumes)
        case .find(let root, let showsHidden, let ticket): finding.start(root: root, showsHidden: showsHidden, ticket: ticket, volumes: volumes)
        case .findQuery(let query, let insideFiles, let ticket): finding.search(query, insideFiles: insideFiles, ticket: ticket)
        case .stopFind: finding.stop()
        case .undo: undoing.undo(volumes: volumes, from: folder)
        case .redo: undoing.redo(volumes: volumes, from: folder)
        case .applyBulkRename(let folder, let changes): undoing.rename(changes, in: folder, volumes: volumes)
        case .loadBookmarks: bookmarks.load(inbox: inbox)
        case .saveBookmarks(let list): bookmarks.save(list, inbox: inbox)
        case .addBookmarks(let list): bookmarks.save(list, keepingTheFiles: true, inbox: inbox)
        case .checkBookmark(let bookmark): bookmarks.check(bookmark, volumes: volumes, place: place, inbox: inbox)
        case .checkBookmarks(let folders): bookmarks.check(folders, volumes: volumes, place: place, inbox: inbox)
        case .drives(let work): drives.perform(work)
        case .openFile, .readText, .redraw, .quit, .playSound, .stopSound, .forgetPictures, .editNames: break  // the app's own
        }
    }

    /// Quitting: a connection under way is given up and cleaned up first.
    func finishDrives() { drives.finish(seconds: 5) }

    /// Quitting: every remote place's link is ended, over qlbrowse serve or SFTP (the remote
    /// side exits with it).
    func disconnectRemotes() {
        place.disconnectRemotes()
    }

    /// The mount point of the volume `path` is on ("/" when none is known).
    static func mountPoint(of path: String, in volumes: [Volume]) -> String {
        Volume.containing(path, in: volumes)?.mountPoint ?? "/"
    }

    /// Asks a volume what it allows (reads only, no trial file).
    private func probe(_ volume: Volume) {
        let inbox = self.inbox, place = self.place
        tasks.submit(group: "probe", volume: volume.mountPoint, priority: .onScreen) { _ in
            guard let found = try? await place.capabilities(of: volume.mountPoint, trial: false) else { return }
            inbox.post(.result(.capabilitiesFound(mountPoint: volume.mountPoint, found)))
        }
    }
}
