import BrowserCore
import Dispatch
import FileSystemKit
import Synchronization
import SystemKit

/// Runs the one search `F` has open: a `FileFinder` on the folder, told each new query, stopped
/// when the search closes; or, inside the files, ripgrep (`rg -l`), started again for each query
/// a moment after the last key. Reports come back through the inbox with the search's ticket.
final class FindRunner {
    private let inbox: Inbox
    private var finder: FileFinder?
    private var ticket = 0
    private var root = "/"
    /// Numbers each content search: a newer one stops the older ripgrep.
    private let contentGeneration = Counter()

    /// A number shared with the searching thread.
    private final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
        var current: Int { value.withLock { $0 } }
    }
    /// How many files a content search lists at most.
    static let contentLimit = 200

    init(inbox: Inbox) {
        self.inbox = inbox
    }

    /// Starts finding below `root`; other volumes mounted below it are left out.
    func start(root: String, showsHidden: Bool, ticket: Int, volumes: [Volume]) {
        stop()
        let inbox = self.inbox
        let finder = FileFinder(root: root, showsHidden: showsHidden, skipping: volumes.map(\.mountPoint)) { report in
            inbox.post(.result(.found(ticket: ticket, report)))
        }
        self.finder = finder
        self.ticket = ticket
        self.root = root
        finder.search("")
        finder.start()
    }

    func search(_ query: String, insideFiles: Bool, ticket: Int) {
        guard ticket == self.ticket else { return }
        let generation = contentGeneration.next()
        guard insideFiles else {
            finder?.search(query)
            return
        }
        guard !query.isEmpty else {
            inbox.post(.result(.found(ticket: ticket, FileFinder.Report(query: query, best: [], matched: 0, walked: 0, complete: true, unreadable: 0))))
            return
        }
        let inbox = self.inbox, root = self.root, generations = contentGeneration
        // A moment after the last key, so that typing a word starts ripgrep once.
        DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + .milliseconds(150)) {
            guard generations.current == generation else { return }
            var found: [String] = [], lastPost = SystemTime.now()
            let prefix = root == "/" ? "/" : root + "/"
            let post = { (complete: Bool) in
                inbox.post(.result(.found(ticket: ticket, FileFinder.Report(query: query, best: Array(found.prefix(Self.contentLimit)), matched: found.count,
                                                                          walked: 0, complete: complete, unreadable: 0))))
            }
            let started = ProcessOutput.lines(["rg", "--files-with-matches", "--smart-case", "--fixed-strings", "--no-messages", "--", query, root]) { line in
                guard generations.current == generation else { return false }
                found.append(line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line)
                if SystemTime.now() - lastPost > 50_000_000 { post(false); lastPost = SystemTime.now() }
                return true
            }
            guard generations.current == generation else { return }
            if started { post(true) } else {
                inbox.post(.result(.showMessage("looking inside files needs ripgrep (Debian package ripgrep)")))
                post(true)
            }
        }
    }

    func stop() {
        finder?.stop()
        finder = nil
        _ = contentGeneration.next()
    }
}
