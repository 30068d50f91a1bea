import FileSystemKit
import SystemKit

/// Background results and the clock: they mean the same in every mode, and each goes to the
/// feature it belongs to. None of them touches the status message unless it has news of its own.
extension BrowserState {
    mutating func reduce(_ result: BackgroundResult) -> [BrowserEffect] {
        switch result {
        case .tick(let now): return tick(now)
        case .listed(let ticket, let batch, let complete):
            guard ticket == self.ticket else { return [] }  // an old folder's late answer
            listingProgressAt = now
            waitingFor = nil
            if relisting?.ticket == ticket { receiveRelisting(batch, complete: complete) } else { receive(batch, complete: complete) }
        case .listingFailed(let ticket, let reason):
            guard ticket == self.ticket else { return [] }
            waitingFor = nil
            // Listed again and failed: what is shown stays, with the reason.
            if relisting?.ticket == ticket {
                relisting = nil
                message = reason
                return []
            }
            navigation.listingError = reason
            navigation.listingComplete = true
            message = reason
        case .listingLostVolume(let ticket):
            guard ticket == self.ticket else { return [] }
            if let volume = currentVolume, volume.mountPoint != "/" { return leave(vanished: volume) }
            return reduce(.listingFailed(ticket: ticket, reason: "the volume under \(folder) is gone"))
        case .listingStalled(let ticket, let volume):
            if ticket == self.ticket && !listingComplete { waitingFor = volume }
        case .reload(let name, let showsAll): return reloadFolder(select: name, showsAll: showsAll)
        case .folderChanged(let changed): return changed == folder ? refreshFolder() : []
        case .showMessage(let text): message = text
        case .volumesChanged, .volumeLost, .volumeGone, .capabilitiesFound: return reduceVolumeResult(result)
        case .drives(let drives): return reduceDrives(drives)
        case .jobChanged(let job):
            if let index = jobs.firstIndex(where: { $0.id == job.id }) {
                // A job that has started never waits again: a "queued" heard late is old news.
                if job.phase != .queued || jobs[index].phase == .queued { jobs[index] = job }
            } else {
                jobs.append(job)
            }
        case .conflictAsked(let job, let conflict): mode = .overlay(.conflict(job: job, conflict))
        case .moveNeedsYes(let sources, let destination, let place): askToDeleteSources(sources, into: destination, from: place)
        case .trashed(let items):
            lastTrashed = items
            lastReplaced = nil
        case .quickLookFacts(let path, let facts): receive(facts, about: path)
        case .editSaved, .editFailed, .editRestored: return reduceEditResult(result)
        case .bookmarksLoaded, .bookmarkChecked, .bookmarksChecked: return reduceBookmarkResult(result)
        case .namesEdited(let folder, let names, let edited): return namesEdited(in: folder, names: names, edited: edited)
        case .found(let ticket, let report): found(report, ticket: ticket)
        }
        return []
    }

    /// The clock: a listing silent too long shows "waiting for <volume>…", and the spinner turns.
    private mutating func tick(_ time: Int64) -> [BrowserEffect] {
        play(until: time, from: now)
        now = time
        if waitingFor != nil { spinnerFrame += 1 }
        if !listingComplete, waitingFor == nil, now - listingProgressAt > Self.stallNotice {
            waitingFor = currentVolume?.label ?? folder
        }
        return drivesTick()
    }
}
