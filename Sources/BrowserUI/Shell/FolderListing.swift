import BrowserCore
import FileSystemKit
import Places
import SystemKit

/// The browser's listing of the folder it shows, through its place: batches come back to the
/// event loop as `.listed` actions with the state's ticket, a failure as `.listingFailed` (or
/// `.listingLostVolume` when the volume is gone), and a new listing cancels the one before.
final class FolderListing {
    private let place: any Place
    private let inbox: Inbox
    private var running: PlaceTask?

    init(place: any Place, inbox: Inbox) {
        self.place = place
        self.inbox = inbox
    }

    /// Lists `folder` for the state's `ticket`, cancelling the listing before.
    func list(_ folder: String, ticket: Int) {
        running?.cancel()
        let inbox = self.inbox
        running = place.list(folder) { entries, complete, failure in
            inbox.post(.result(.listed(ticket: ticket, entries: entries, complete: failure != nil || complete)))
            guard let failure else { return }
            inbox.post(.result(failure.meansVolumeGone ? .listingLostVolume(ticket: ticket) : .listingFailed(ticket: ticket, reason: failure.message)))
        }
    }

    func cancel() {
        running?.cancel()
        running = nil
    }
}
