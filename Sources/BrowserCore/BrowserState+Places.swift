import FileSystemKit

/// Getting back to places: `H`/`L` through the folders visited, bookmarks set with `b` and a key,
/// gone to with `'` and the key, listed with `B`. A bookmark's folder is checked (within its
/// volume's deadline) before the browser goes there: one on a volume that is not mounted says so
/// and the browser stays where it is.
extension BrowserState {
    /// Places actions.
    mutating func reduce(_ action: PlacesAction) -> [BrowserEffect] {
        switch action {
        case .historyBack, .historyForward:
            history.leave(selecting: selected?.nameBytes)
            guard let stop = history.step(back: action == .historyBack) else {
                message = action == .historyBack ? "no folder before this one" : "no folder after this one"
                return []
            }
            return enter(stop.folder, select: stop.selection, recordsHistory: false)
        case .startBookmark:
            mode = .awaitingKey(.setBookmark)
            message = "bookmark this folder: press a key for it (Esc cancels)"
        case .startJump:
            guard !bookmarks.isEmpty || !bookmarksRead else {
                message = "no bookmarks yet: b then a key keeps this folder"
                return []
            }
            mode = .awaitingKey(.jumpToBookmark)
            message = "go to: " + bookmarks.map { "\($0.key) \(Self.lastComponent($0.folder))" }.joined(separator: "  ")
        case .toggleBookmarks:
            guard overlay != .bookmarks else {
                mode = .browsing
                return []
            }
            mode = .overlay(.bookmarks)
            bookmarkCursor = min(bookmarkCursor, max(0, bookmarks.count - 1))
            return bookmarks.isEmpty ? [] : [.checkBookmarks(bookmarks.map(\.folder))]
        case .keyAnswer(let key): return answerKey(key)
        case .cancelKeyQuestion:
            if case .awaitingKey(.keepPassword(let url)) = mode { return answerKeepPassword(url, key: nil) }
            if case .awaitingKey(.deleteSourcesForGood(let sources, let destination, let place)) = mode {
                return answerDeleteSources(sources, into: destination, from: place, key: nil)
            }
            if case .awaitingKey(.rekeyBookmark) = mode { mode = .overlay(.bookmarks) } else { mode = .browsing }
        case .deleteBookmark:
            guard overlay == .bookmarks, bookmarks.indices.contains(bookmarkCursor) else { return [] }
            let gone = bookmarks.remove(at: bookmarkCursor)
            bookmarkCursor = min(bookmarkCursor, max(0, bookmarks.count - 1))
            message = "bookmark \(gone.key) deleted"
            return [.saveBookmarks(bookmarks)]
        }
        return []
    }

    /// Results about bookmarks.
    mutating func reduceBookmarkResult(_ result: BackgroundResult) -> [BrowserEffect] {
        switch result {
        case .bookmarksLoaded(let loaded, let problem):
            // Bookmarks set before the file was read stay, over the file's under the same key.
            let setMeanwhile = Set(bookmarks.map(\.key))
            bookmarks = (bookmarks + loaded.filter { !setMeanwhile.contains($0.key) }).sorted { $0.key < $1.key }
            bookmarksRead = true
            if let problem { message = problem }
            // A key pressed after ' before the file was read goes now.
            if let key = pendingJump {
                pendingJump = nil
                mode = .awaitingKey(.jumpToBookmark)
                return answerKey(key) + (setMeanwhile.isEmpty ? [] : [.saveBookmarks(bookmarks)])
            }
            if !setMeanwhile.isEmpty { return [.saveBookmarks(bookmarks)] }
        case .bookmarkChecked(let bookmark, let problem):
            if let problem {
                bookmarkProblems[bookmark.folder] = problem
                // What and why first: a long path is what a narrow status line cuts.
                message = "bookmark \(bookmark.key) is unavailable: \(problem) · \(bookmark.folder)"
                return []
            }
            bookmarkProblems[bookmark.folder] = nil
            if overlay == .bookmarks { mode = .browsing }
            return enter(bookmark.folder, select: bookmark.file.map { Array($0.utf8) })
        case .bookmarksChecked(let checks):
            for check in checks { bookmarkProblems[check.folder] = check.problem ?? "" }
        default: break
        }
        return []
    }

    /// Keys in the bookmarks list.
    mutating func applyInBookmarks(_ action: BrowserAction) -> [BrowserEffect]? {
        if let moved = Self.listCursor(bookmarkCursor, count: bookmarks.count, after: action) {
            bookmarkCursor = moved
            return []
        }
        switch action {
        case .screen(.closeOverlay), .places(.toggleBookmarks), .screen(.quit), .navigation(.parent): mode = .browsing
        case .navigation(.open):
            guard bookmarks.indices.contains(bookmarkCursor) else { return [] }
            return [.checkBookmark(bookmarks[bookmarkCursor])]
        case .places(.deleteBookmark): return reduce(PlacesAction.deleteBookmark)
        case .files(.startRename):
            guard bookmarks.indices.contains(bookmarkCursor) else { return [] }
            mode = .awaitingKey(.rekeyBookmark(bookmarks[bookmarkCursor].key))
            message = "the new key for bookmark \(bookmarks[bookmarkCursor].key) (Esc keeps it)"
        default: return nil
        }
        return []
    }

    private mutating func answerKey(_ key: String) -> [BrowserEffect] {
        guard case .awaitingKey(let question) = mode else { return [] }
        switch question {
        case .keepPassword(let url):
            return answerKeepPassword(url, key: key)
        case .deleteSourcesForGood(let sources, let destination, let place):
            return answerDeleteSources(sources, into: destination, from: place, key: key)
        case .setBookmark:
            mode = .browsing
            let bookmark = Bookmark(key: key, folder: folder, file: selected?.name)
            let replaced = bookmarks.firstIndex { $0.key == key }
            if let replaced { bookmarks[replaced] = bookmark } else { bookmarks.append(bookmark) }
            bookmarks.sort { $0.key < $1.key }
            bookmarkProblems[folder] = ""
            message = "bookmark \(key): \(Self.lastComponent(folder))" + (replaced != nil ? " (replaces the old one)" : "") + "; ' then \(key) comes back"
            // Before the file is read, saving the list would drop what the file holds (a quit
            // before the file's answer came lost them): the file keeps its own.
            return [bookmarksRead ? .saveBookmarks(bookmarks) : .addBookmarks(bookmarks)]
        case .jumpToBookmark:
            mode = .browsing
            if !bookmarksRead, !bookmarks.contains(where: { $0.key == key }) {
                pendingJump = key
                return []
            }
            guard let bookmark = bookmarks.first(where: { $0.key == key }) else {
                message = "no bookmark under \(key)"
                return []
            }
            return [.checkBookmark(bookmark)]
        case .rekeyBookmark(let old):
            mode = .overlay(.bookmarks)
            guard let index = bookmarks.firstIndex(where: { $0.key == old }) else { return [] }
            if let taken = bookmarks.firstIndex(where: { $0.key == key }), taken != index {
                message = "\(key) already names \(Self.lastComponent(bookmarks[taken].folder)); delete that one first"
                return []
            }
            bookmarks[index].key = key
            bookmarks.sort { $0.key < $1.key }
            bookmarkCursor = bookmarks.firstIndex { $0.key == key } ?? 0
            return [.saveBookmarks(bookmarks)]
        }
    }
}
