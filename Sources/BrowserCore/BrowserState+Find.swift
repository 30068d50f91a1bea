import FileSystemKit

/// `F`: names below this folder, found as the user types. Enter goes to the folder of the match
/// under the cursor with the cursor on it; Esc gives up; the walk stops either way.
extension BrowserState {
    /// Finding actions.
    mutating func reduce(_ action: FindAction) -> [BrowserEffect] {
        switch action {
        case .start:
            ticket += 1
            find = FindState(root: folder, ticket: ticket)
            mode = .finding
            return [.find(root: folder, showsHidden: showHidden, ticket: ticket)]
        case .input(let text):
            guard var search = find else { return [] }
            search.query += text
            search.cursor = 0
            find = search
            return [.findQuery(search.query, insideFiles: search.insideFiles, ticket: search.ticket)]
        case .backspace:
            guard var search = find, !search.query.isEmpty else { return [] }
            search.query.removeLast()
            search.cursor = 0
            find = search
            return [.findQuery(search.query, insideFiles: search.insideFiles, ticket: search.ticket)]
        case .toggleInside:
            guard var search = find else { return [] }
            search.insideFiles.toggle()
            search.cursor = 0
            search.report = nil
            find = search
            return [.findQuery(search.query, insideFiles: search.insideFiles, ticket: search.ticket)]
        case .move(let step):
            guard var search = find, let count = search.report?.best.count, count > 0 else { return [] }
            search.cursor = min(max(0, search.cursor + step), count - 1)
            find = search
        case .cancel:
            find = nil
            mode = .browsing
            return [.stopFind]
        case .accept:
            guard let chosen = find?.chosen else { return [] }
            find = nil
            mode = .browsing
            let slash = chosen.lastIndex(of: "/")!
            let parent = slash == chosen.startIndex ? "/" : String(chosen[..<slash])
            return [.stopFind] + enter(parent, select: Array(chosen[chosen.index(after: slash)...].utf8))
        }
        return []
    }

    /// The finder's report for the search numbered `ticket` (a closed search's is dropped).
    mutating func found(_ report: FileFinder.Report, ticket: Int) {
        guard mode == .finding, var search = find, search.ticket == ticket else { return }
        search.report = report
        search.cursor = min(search.cursor, max(0, report.best.count - 1))
        find = search
    }
}
