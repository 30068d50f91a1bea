import BrowserCore
import FileSystemKit

/// Runs the one search `F` has open: a `FileFinder` on the folder, told each new query, stopped
/// when the search closes. Reports come back through the inbox with the search's ticket.
final class FindRunner {
    private let inbox: Inbox
    private var finder: FileFinder?
    private var ticket = 0

    init(inbox: Inbox) {
        self.inbox = inbox
    }

    /// Starts finding below `root`; other volumes mounted below it are left out.
    func start(root: String, showsHidden: Bool, ticket: Int, volumes: [Volume]) {
        stop()
        let inbox = self.inbox
        let finder = FileFinder(root: root, showsHidden: showsHidden, skipping: volumes.map(\.mountPoint)) { report in
            inbox.post(.action(.found(ticket: ticket, report)))
        }
        self.finder = finder
        self.ticket = ticket
        finder.search("")
        finder.start()
    }

    func search(_ query: String, ticket: Int) {
        guard ticket == self.ticket else { return }
        finder?.search(query)
    }

    func stop() {
        finder?.stop()
        finder = nil
    }
}
