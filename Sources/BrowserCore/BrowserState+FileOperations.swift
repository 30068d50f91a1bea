import FileSystemKit
import SystemKit

/// Marks, the clipboard, renaming and creating, trash and delete: the state side of file
/// operations. The work itself runs in jobs; their results come back as actions.
extension BrowserState {
    /// What `y`/`x` put aside for `p`.
    public struct Clipboard: Sendable, Equatable {
        public let paths: [String]
        public let isCut: Bool
    }

    /// The marked entries' paths, or the selected entry's when nothing is marked.
    public var chosenPaths: [String] {
        let marked = entries.filter { self.marked.contains($0.nameBytes) }
        if !marked.isEmpty { return marked.map { $0.path(in: folder) } }
        return selected.map { [$0.path(in: folder)] } ?? []
    }

    /// File-operation actions.
    mutating func reduce(_ action: FileAction) -> [BrowserEffect] {
        switch action {
        case .toggleMark:
            guard let name = selected?.nameBytes else { return [] }
            if marked.contains(name) { marked.remove(name) } else { marked.insert(name) }
            moveCursorBy(1)
        case .invertMarks:
            let all = Set(entries.map(\.nameBytes))
            marked = all.subtracting(marked)
        case .clearMarks:
            marked = []
        case .copyMarked, .cutMarked:
            let (paths, movies) = withLiveMovies(chosenPaths)
            guard !paths.isEmpty else {
                message = "nothing to \(action == .cutMarked ? "move" : "copy") here"
                return []
            }
            let isCut = action == .cutMarked
            clipboard = Clipboard(paths: paths, isCut: isCut)
            marked = []
            message = "\(Self.count(paths.count - movies)) to \(isCut ? "move" : "copy")\(Self.movieNote(movies)) · p pastes"
        case .paste:
            guard let clipboard else {
                message = "nothing to paste: y copies, x cuts"
                return []
            }
            if clipboard.isCut { self.clipboard = nil }
            return [.fileOperation(clipboard.isCut ? .move : .copy, sources: clipboard.paths, destination: folder)]
        case .startRename:
            guard let entry = selected else { return [] }
            prompt = .renaming(entry.name, isFolder: entry.isDirectory)
        case .startCreate:
            prompt = TextPrompt(purpose: .create)
        case .trashMarked:
            let (paths, movies) = withLiveMovies(chosenPaths)
            guard !paths.isEmpty else { return [] }
            marked = []
            if movies > 0 { message = "trashing\(Self.movieNote(movies))" }
            return [.fileOperation(.trash, sources: paths, destination: nil)]
        case .deleteMarked:
            let paths = withLiveMovies(chosenPaths).paths
            guard !paths.isEmpty else { return [] }
            overlay = .confirmDelete(paths)
        case .restoreTrashed:
            if let replaced = lastReplaced {
                lastReplaced = nil
                return [.restoreReplaced(original: replaced.original, edited: replaced.edited)]
            }
            guard !lastTrashed.isEmpty else {
                message = "nothing trashed in this session to restore"
                return []
            }
            defer { lastTrashed = [] }
            return [.restore(lastTrashed)]
        }
        return []
    }

    /// The answer while `D` waits for a yes, or while a conflict waits for one; other keys do nothing.
    mutating func applyQuestion(_ question: Overlay, _ action: BrowserAction) -> [BrowserEffect] {
        switch (question, action) {
        case (.confirmDelete(let paths), .answer(.confirmDelete)):
            mode = .browsing
            marked = []
            return [.fileOperation(.delete, sources: paths, destination: nil)]
        case (.conflict(let job, _), .answer(.conflict(let choice, let all))):
            mode = .browsing
            return [.resolveConflict(job: job, choice, applyToAll: all)]
        case (.conflict(let job, _), .screen(.closeOverlay)), (.conflict(let job, _), .screen(.quit)):
            mode = .browsing
            return [.resolveConflict(job: job, .skip, applyToAll: false)]
        case (.confirmDelete, .screen(.closeOverlay)), (.confirmDelete, .screen(.quit)):
            mode = .browsing
            message = "nothing deleted"
            return []
        case (.bulkRenamePlan(let folder, let plan), .answer(.confirmBulkRename)):
            mode = .browsing
            marked = []
            message = "renaming \(plan.changes.count)…"
            return [.applyBulkRename(folder: folder, plan.changes)]
        case (.bulkRenamePlan, .screen(.closeOverlay)), (.bulkRenamePlan, .screen(.quit)):
            mode = .browsing
            message = "nothing renamed"
            return []
        default:
            return []
        }
    }

    /// Typing a name for `r` or `a` (what the prompt does not take, the mouse, goes to the list).
    mutating func reduce(_ action: PromptAction) -> [BrowserEffect] {
        switch action {
        case .input(let text): prompt?.insert(text)
        case .backspace: prompt?.backspace()
        case .move(let offset): prompt?.move(by: offset)
        case .home: prompt?.moveToStart()
        case .end: prompt?.moveToEnd()
        case .cancel: prompt = nil
        case .accept: return acceptPrompt()
        }
        return []
    }

    private mutating func acceptPrompt() -> [BrowserEffect] {
        guard let prompt else { return [] }
        self.prompt = nil
        if let effects = acceptServerPrompt(prompt) { return effects }
        var text = prompt.text
        let wantsFolder = text.hasSuffix("/")
        while text.hasSuffix("/") { text.removeLast() }
        guard !text.isEmpty, text != ".", text != "..", !text.contains("/") else {
            message = text.contains("/") ? "a name cannot contain /" : "no name given"
            return []
        }
        switch prompt.purpose {
        case .rename(let original):
            guard text != original else { return [] }
            // A Live Photo's movie takes the still's new name, in one step (one undo).
            if let movie = navigation.livePhotos.movie(ofStill: original.fileSystemBytes).map({ String(fileSystemBytes: $0) }) {
                message = "renaming\(Self.movieNote(1))…"
                return [.applyBulkRename(folder: folder, [.init(from: original, to: text),
                                                          .init(from: movie, to: LivePhotoPairs.movieName(movie, forStill: text))])]
            }
            return [.rename(from: Self.join(folder, original), to: Self.join(folder, text))]
        case .create:
            return [.create(path: Self.join(folder, text), folder: wantsFolder)]
        case .connect, .password, .note: return []  // acceptServerPrompt's
        }
    }

    public static func join(_ folder: String, _ name: String) -> String { folder == "/" ? "/" + name : folder + "/" + name }

    static func count(_ items: Int) -> String { items == 1 ? "1 item" : "\(items) items" }
}
