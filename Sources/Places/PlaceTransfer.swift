import FileSystemKit
import Synchronization
import SystemKit

/// A copy from one place to another: a local folder into a remote one, a remote into a local,
/// two remotes. Each file goes in pieces (`read` there, `writeChunk` here) under a hidden
/// temporary name in the destination folder (`FileCopier.temporaryName`, so a later local copy
/// there removes a killed run's leftover), then one rename puts it in place, never over a name;
/// a folder is made under a temporary name too and renamed when all of it is in. So a link cut
/// mid-copy leaves no half file or half folder under the final name, and the report says what
/// was copied, what was not (with why) and which temporary the cut left behind.
///
/// A link that drops is connected again and the piece asked once more, so the copy goes on
/// where it stopped; when the place cannot be reached again, the item is not copied, its
/// temporary is named (`leftovers`) and the items after it are reported not copied.
///
/// Progress, pause and cancel are `FileOperation`'s (the jobs panel's); a taken name is asked
/// through `events.resolve` on a thread of its own (the user may take minutes: no shared thread
/// waits), and overwrite moves the old item to the destination's trash first, so nothing is lost
/// (a place without a trash, SFTP, refuses an overwrite and a move from it). A source changed
/// while it was copied is not put in place. A temporary an earlier transfer into the same
/// folder left (its journal says so, and its process is gone) is removed first, unless it is a
/// file's copy cut by a lost link that still checks against its source: that one is gone on
/// with from its prefix known whole (`PlaceTransfer+Resuming`).
public struct PlaceTransfer: Sendable {
    public let source: any Place
    public let destination: any Place
    /// Bytes per piece (1 MB: a frame each way, progress ten times a second on a slow link).
    public let piece: Int
    /// Pieces of one file on their way at once (after the first, which makes the file).
    public let inFlight: Int

    public init(from source: any Place, to destination: any Place, piece: Int = 1 << 20, inFlight: Int = 4) {
        self.source = source
        self.destination = destination
        self.piece = max(1, piece)
        self.inFlight = max(1, inFlight)
    }

    /// The progress of a transfer, shared by its steps.
    final class Tally: Sendable {
        let state: Mutex<FileOperation.Progress>
        init(_ progress: FileOperation.Progress) { state = Mutex(progress) }
    }

    /// One file or folder found under a source, relative to the source's parent.
    struct Item: Sendable {
        let path: String
        let relative: String
        let isDirectory: Bool
        let size: Int
        let modified: Int
        /// The permission bits the copy gets (`keptMode` of the source's); nil: not known.
        var mode: UInt32?
    }

    /// Copies `operation.sources` (on `source`) into the folder `operation.destination` (on
    /// `destination`); returns the report, item by item (the items chosen, not every file inside).
    /// `journal` writes each item's step down as it goes (it stays when the copy did not finish).
    public func copy(_ operation: FileOperation, events: FileOperationEvents, journal: TransferJournal? = nil) async -> FileOperation.Report {
        await transfer(operation, events: events, journal: journal, removingSources: false)
    }

    /// A move between places: `copy`, and each item whose copy was put in place (whole, renamed
    /// into its final name) then goes to the trash of the place it came from (`source.trash`:
    /// the user's Trash here, the remote's own on a remote), so the move can be undone. An item
    /// not copied, skipped or cut off keeps its source; one whose source could not be trashed is
    /// in place and keeps its source too (reported, never lost). `report.done` holds the items
    /// moved, `report.trashed` where their sources went, `report.placed` every copy in place.
    public func move(_ operation: FileOperation, events: FileOperationEvents, journal: TransferJournal? = nil) async -> FileOperation.Report {
        await transfer(operation, events: events, journal: journal, removingSources: true)
    }

    private func transfer(_ operation: FileOperation, events: FileOperationEvents, journal: TransferJournal?,
                          removingSources: Bool) async -> FileOperation.Report {
        var report = FileOperation.Report()
        guard let folder = operation.destination else { return report }
        defer { journal?.finish() }
        if removingSources, !source.hasTrash, !operation.deletesSourcesForGood { return refusedMove(operation, journal: journal) }
        var resumable: [String: Resumption] = [:]
        if let journal { resumable = await removeLeftovers(in: folder, journal: journal, sources: operation.sources, report: &report) }
        var trees: [(source: String, items: [Item])] = []
        for path in operation.sources {
            do throws(FileSystemError) {
                trees.append((path, try await walk(path)))
            } catch {
                report.notDone.append(path)
                report.failures.append("\(TerminalText.escaped(FileOperation.name(path))): \(error.message)")
                journal?.update(path) { $0.state = .notCopied; $0.reason = error.message }
            }
        }
        let progress = Tally(FileOperation.Progress(bytesTotal: Int64(trees.flatMap(\.items).reduce(0) { $0 + $1.size }), itemsTotal: trees.count))
        var lost: FileSystemError?
        for (path, items) in trees {
            if let lost {
                report.notDone.append(path)
                report.failures.append("\(TerminalText.escaped(FileOperation.name(path))): not copied, \(lost.message)")
                journal?.update(path) { $0.state = .notCopied; $0.reason = lost.message }
                continue
            }
            if operation.isCancelled {
                report.cancelled = true
                report.notDone.append(path)
                journal?.update(path) { $0.state = .notCopied; $0.reason = "cancelled" }
                continue
            }
            let outcome = await place(path, items, into: folder, operation: operation, events: events, progress: progress, journal: journal,
                                      resuming: resumable[path])
            switch outcome {
            case .placed(let target):
                report.placed.append(FileOperation.Placement(source: path, target: target, sameVolume: false))
                journal?.update(path) { $0.state = .done; $0.target = target; $0.temporary = nil; $0.resume = nil }
                if removingSources, !source.hasTrash {
                    await deleteSource(path, items, placedAt: target, report: &report, journal: journal)
                } else if removingSources {
                    await removeSource(path, placedAt: target, report: &report, journal: journal)
                } else {
                    report.done.append(path)
                }
            case .skipped:
                report.skipped.append(path)
                journal?.update(path) { $0.state = .skipped }
            case .cancelled:
                report.cancelled = true
                report.notDone.append(path)
                journal?.update(path) { $0.state = .notCopied; $0.reason = "cancelled"; $0.temporary = nil; $0.resume = nil }
            case .failed(let error, let leftover):
                report.notDone.append(path)
                report.failures.append("\(TerminalText.escaped(FileOperation.name(path))): \(error.message)")
                if let leftover { report.leftovers.append(leftover) }
                if error.code == .volumeGone || error.code == .notResponding { lost = error }
                journal?.update(path) { item in
                    item.state = .notCopied
                    item.reason = error.message
                    item.temporary = leftover
                    if leftover == nil { item.resume = nil }
                }
            }
            progress.state.withLock { $0.itemsDone += 1 }
            events.progress(progress.state.withLock { $0 })
        }
        return report
    }

    /// A move's second step, once `path`'s copy is in place at `target`: its source to its trash.
    private func removeSource(_ path: String, placedAt target: String, report: inout FileOperation.Report, journal: TransferJournal?) async {
        do throws(FileSystemError) {
            let trashed = try await source.trash(path)
            report.done.append(path)
            report.trashed.append(trashed)
            journal?.update(path) { $0.state = .moved; $0.trashed = trashed.trashedPath }
        } catch {
            let why = "copied to \(TerminalText.escaped(target)), the original kept: \(error.message)"
            report.notDone.append(path)
            report.failures.append("\(TerminalText.escaped(FileOperation.name(path))): \(why)")
            journal?.update(path) { $0.reason = why }
        }
    }

    /// `path` and everything under it, folders before what they hold.
    func walk(_ path: String) async throws(FileSystemError) -> [Item] {
        let top = try await source.item(at: path)
        let name = FileOperation.name(path)
        var items = [Item(path: path, relative: name, isDirectory: top.isDirectory, size: top.isDirectory ? 0 : top.size, modified: top.modified,
                          mode: top.mode.map(Self.keptMode))]
        guard top.isDirectory else {
            guard top.isRegularFile else { throw FileSystemError(code: .unsupported, path: path, context: "only files and folders are copied between places") }
            return items
        }
        var folders = [(path, name)]
        while let (folder, relative) = folders.popLast() {
            let listed: EntryStore
            do { listed = try await source.entries(of: folder) } catch { throw (error as? FileSystemError) ?? FileSystemError(code: .other, path: folder) }
            for handle in listed.handles {
                let entry = listed.entry(handle)
                // A link inside a folder is not followed across places (it may point anywhere).
                if entry.isSymbolicLink { continue }
                let child = Item(path: entry.path(in: folder), relative: relative + "/" + entry.name, isDirectory: entry.isDirectory,
                                 size: entry.isDirectory ? 0 : entry.size, modified: entry.modified)
                items.append(child)
                if entry.isDirectory { folders.append((child.path, child.relative)) }
            }
        }
        return try await withModes(items)
    }
}
