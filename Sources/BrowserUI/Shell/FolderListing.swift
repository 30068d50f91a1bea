import BrowserCore
import Dispatch
import FileSystemKit
import Places
import Synchronization
import SystemKit

/// The browser's listing of the folder it shows, through its place: batches come back to the
/// event loop as `.listed` actions with the state's ticket, a failure as `.listingFailed` (or
/// `.listingLostVolume` when the volume is gone), and a new listing cancels the one before.
///
/// A remote place whose link went silent is shown as a hung volume is: "waiting for <host>…
/// (Esc goes back)" once the listing has been silent for `BrowserState.stallNotice`, and past
/// the place's listing deadline (`.notResponding`) the listing is asked again rather than
/// failed, so it comes in by itself when the link heals. A listing that went silent after some
/// of its entries came keeps them and ends with "<host> is not responding".
final class FolderListing {
    private let place: any Place
    private let inbox: Inbox
    private var running: Run?
    /// The listed folder's watch: a change lists it again by itself.
    private let watching: FolderWatching

    init(place: any Place, inbox: Inbox) {
        self.place = place
        self.inbox = inbox
        watching = FolderWatching(place: place, inbox: inbox)
    }

    /// Lists `folder` for the state's `ticket`, cancelling the listing before.
    func list(_ folder: String, ticket: Int) {
        running?.cancel()
        let run = Run(place: place, inbox: inbox, folder: folder, ticket: ticket)
        running = run
        run.start()
        watching.follow(folder)
    }

    func cancel() {
        running?.cancel()
        running = nil
    }

    /// One folder's listing for one ticket, asked again while a remote does not respond.
    private final class Run: Sendable {
        let place: any Place
        let inbox: Inbox
        let folder: String
        let ticket: Int
        private let state = Mutex<(task: PlaceTask?, cancelled: Bool, heard: Bool)>((nil, false, false))

        init(place: any Place, inbox: Inbox, folder: String, ticket: Int) {
            self.place = place
            self.inbox = inbox
            self.folder = folder
            self.ticket = ticket
        }

        /// The host the folder is on when it is remote (the browser's place is a `PlaceRouter`,
        /// where a remote folder is `ssh://host/…`), nil on this computer.
        private var remoteHost: String? {
            if let remote = place as? RemotePlace { return remote.name }
            return place is PlaceRouter ? PlacePath.host(folder) : nil
        }

        func start() {
            if remoteHost != nil {
                // The clock's own "waiting for …" would name a volume of this computer.
                DispatchQueue.global().asyncAfter(deadline: .now() + Double(BrowserState.stallNotice) / 1e9) { [self] in
                    if state.withLock({ !$0.cancelled && !$0.heard }) { stalled() }
                }
            }
            attempt()
        }

        func cancel() {
            let task = state.withLock { state -> PlaceTask? in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }

        private func stalled() {
            inbox.post(.result(.listingStalled(ticket: ticket, volume: TerminalText.escaped(remoteHost ?? place.name))))
        }

        private func attempt() {
            let inbox = self.inbox, ticket = self.ticket
            let task = place.list(folder) { [self] entries, complete, failure in
                let heard = state.withLock { state -> Bool in
                    defer { if failure == nil { state.heard = true } }
                    return state.heard
                }
                if let failure, failure.code == .notResponding, !heard, remoteHost != nil {
                    guard !state.withLock({ $0.cancelled }) else { return }
                    stalled()
                    attempt()
                    return
                }
                inbox.post(.result(.listed(ticket: ticket, entries: entries, complete: failure != nil || complete)))
                guard let failure else { return }
                inbox.post(.result(failure.meansVolumeGone ? .listingLostVolume(ticket: ticket) : .listingFailed(ticket: ticket, reason: failure.message)))
            }
            let cancelled = state.withLock { state -> Bool in
                if !state.cancelled { state.task = task }
                return state.cancelled
            }
            if cancelled { task.cancel() }
        }
    }
}
