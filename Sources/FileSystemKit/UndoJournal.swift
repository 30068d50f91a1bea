import Synchronization
import SystemKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What the user did to files, to undo (`z`) and redo (`Z`): kept in a file, written whole after
/// each change by the writer the caller gives (atomically and durably, so that it survives a
/// crash), one change at a time. An undo first checks every
/// file it would touch is as the operation left it, and refuses with the reason when not (undoing
/// then would lose someone's change); a part that fails midway is rolled back.
public final class UndoJournal: Sendable {
    /// What an undo or redo did, for the user.
    public struct Outcome: Sendable, Equatable {
        public let message: String
        public let succeeded: Bool
    }

    private struct Stacks: Codable {
        var undo: [UndoStep] = []
        var redo: [UndoStep] = []
    }

    public let path: String
    /// Writes the journal's bytes to its path, replacing what was there at once.
    private let write: @Sendable ([UInt8], String) -> Void
    /// nil until the file is read: read at the first use, under the lock, so that a step recorded
    /// before the browser's start-up read is never overwritten by that read.
    private let state = Mutex<Stacks?>(nil)
    /// Steps kept at most; the oldest go first.
    static let limit = 100

    public init(path: String, write: @escaping @Sendable (_ bytes: [UInt8], _ path: String) -> Void) {
        self.path = path
        self.write = write
    }

    /// Reads the journal a run before left, if it is not read yet (any use reads it first; this
    /// lets a caller do it ahead, off the thread that will use it).
    public func load() { withStacks { _ in } }

    public var canUndo: Bool { withStacks { !$0.undo.isEmpty } }

    /// Runs `body` on the stacks, read from the file first if this is the first use. A damaged file
    /// is set aside (".damaged") and a new journal started.
    private func withStacks<Result>(_ body: (inout Stacks) -> Result) -> Result {
        state.withLock { state in
            if state == nil {
                let data = try? Data(contentsOf: URL(fileURLWithPath: path))
                let loaded = data.flatMap { try? JSONDecoder().decode(Stacks.self, from: $0) }
                if data != nil && loaded == nil { rename(path, path + ".damaged") }
                state = loaded ?? Stacks()
            }
            return body(&state!)
        }
    }

    /// A new step: what was ahead to redo goes.
    public func record(_ step: UndoStep) {
        guard !step.actions.isEmpty else { return }
        save { stacks in
            stacks.undo.append(step)
            if stacks.undo.count > Self.limit { stacks.undo.removeFirst(stacks.undo.count - Self.limit) }
            stacks.redo = []
        }
    }

    /// Undoes the last step; `moved` and `removed` let thumbnails follow.
    public func undo(trash: TrashCan, moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Outcome {
        replay(fromUndo: true, trash: trash, moved: moved, removed: removed)
    }

    /// Does again the last step undone.
    public func redo(trash: TrashCan, moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Outcome {
        replay(fromUndo: false, trash: trash, moved: moved, removed: removed)
    }

    /// Does `actions` together: all, or (after a failure) none. Returns what undoes them, or why not.
    public static func perform(_ actions: [UndoAction], trash: TrashCan, moved: (String, String) -> Void = { _, _ in },
                               removed: (String) -> Void = { _ in }) -> Result<[UndoAction], UndoRefusal> {
        if let problem = actions.lazy.compactMap({ Self.problem($0) }).first { return .failure(UndoRefusal(problem)) }
        var inverses: [UndoAction] = []
        for action in actions {
            switch run(action, trash: trash, moved: moved, removed: removed) {
            case .success(let inverse): inverses.append(inverse)
            case .failure(let failure):
                // What was done of this step is taken back, newest first.
                for inverse in inverses.reversed() { _ = run(inverse, trash: trash, moved: moved, removed: removed) }
                return .failure(failure)
            }
        }
        return .success(inverses.reversed())
    }

    private func replay(fromUndo: Bool, trash: TrashCan, moved: (String, String) -> Void, removed: (String) -> Void) -> Outcome {
        guard let step = withStacks({ fromUndo ? $0.undo.last : $0.redo.last }) else {
            return Outcome(message: fromUndo ? "nothing to undo" : "nothing to redo", succeeded: false)
        }
        let verb = fromUndo ? "undone" : "redone"
        switch Self.perform(step.actions, trash: trash, moved: moved, removed: removed) {
        case .failure(let refusal):
            return Outcome(message: "cannot \(fromUndo ? "undo" : "redo") \(step.title): \(refusal.reason)", succeeded: false)
        case .success(let inverses):
            save { stacks in
                if fromUndo {
                    stacks.undo.removeLast()
                    stacks.redo.append(UndoStep(title: step.title, actions: inverses))
                } else {
                    stacks.redo.removeLast()
                    stacks.undo.append(UndoStep(title: step.title, actions: inverses))
                }
            }
            return Outcome(message: "\(verb): \(step.title)" + (fromUndo ? " (Z redoes)" : ""), succeeded: true)
        }
    }

    /// Why `action` cannot be done now, or nil.
    static func problem(_ action: UndoAction) -> String? {
        switch action {
        case .rename(let from, let to, let expected), .move(let from, let to, let expected):
            if let problem = PathStamp.problem(from, expected: expected) { return problem }
            return PathStamp.of(to) == nil ? nil : "\(FileOperation.escapedName(to)) is taken by another file"
        case .discard(let path, let expected):
            return PathStamp.problem(path, expected: expected)
        case .restore(let item):
            if PathStamp.of(item.trashedPath) == nil { return "\(FileOperation.escapedName(item.originalPath)) is no longer in the Trash" }
            return PathStamp.of(item.originalPath) == nil ? nil : "\(FileOperation.escapedName(item.originalPath)) is taken by another file"
        case .renames(let renames):
            let sources = Set(renames.map(\.from))
            for rename in renames {
                if let problem = PathStamp.problem(rename.from, expected: rename.expected) { return problem }
                if !sources.contains(rename.to), PathStamp.of(rename.to) != nil { return "\(FileOperation.escapedName(rename.to)) is taken by another file" }
            }
            return nil
        }
    }

    private static func run(_ action: UndoAction, trash: TrashCan, moved: (String, String) -> Void, removed: (String) -> Void) -> Result<UndoAction, UndoRefusal> {
        do throws(FileSystemError) {
            switch action {
            case .rename(let from, let to, _):
                try FileRename.noReplaceOrLook(from, to: to)
                moved(from, to)
                return .success(.rename(from: to, to: from, expected: PathStamp.of(to)!))
            case .move(let from, let to, _):
                let folder = String(to[..<to.lastIndex(of: "/")!])
                let operation = FileOperation(kind: .move, sources: [from], destination: folder.isEmpty ? "/" : folder)
                let report = operation.run(trash: nil, resolve: { _ in (.skip, false) }, progress: { _ in }, moved: moved, removed: removed)
                guard let placed = report.placed.first else { return .failure(UndoRefusal(report.failures.first ?? "\(FileOperation.escapedName(from)) could not be moved back")) }
                if placed.target != to {
                    try FileRename.noReplaceOrLook(placed.target, to: to)
                    moved(placed.target, to)
                }
                return .success(.move(from: to, to: from, expected: PathStamp.of(to)!))
            case .discard(let path, _):
                let item = try trash.trash(path)
                removed(path)
                return .success(.restore(item))
            case .restore(let item):
                let back = try trash.restore(item)
                return .success(.discard(back, expected: PathStamp.of(back)!))
            case .renames(let renames):
                return try renameTogether(renames, moved: moved).map { .renames($0) }
            }
        } catch {
            return .failure(UndoRefusal(error.message))
        }
    }

    /// Renames in two passes through hidden temporary names, so that swaps and cycles (a→b, b→a)
    /// work; on a failure every name goes back.
    private static func renameTogether(_ renames: [UndoAction.Rename], moved: (String, String) -> Void) throws(FileSystemError) -> Result<[UndoAction.Rename], UndoRefusal> {
        var parked: [(rename: UndoAction.Rename, temporary: String)] = []
        var placed: [(rename: UndoAction.Rename, temporary: String)] = []
        func rollBack() {
            for (rename, temporary) in placed.reversed() { try? FileRename.noReplaceOrLook(rename.to, to: temporary) }
            for (rename, temporary) in parked.reversed() { try? FileRename.noReplaceOrLook(temporary, to: rename.from) }
        }
        for (index, rename) in renames.enumerated() {
            let folder = String(rename.from[..<rename.from.lastIndex(of: "/")!])
            let temporary = folder + "/.qlbrowse-rename-\(getpid())-\(index)"
            do { try FileRename.noReplaceOrLook(rename.from, to: temporary) } catch {
                rollBack()
                return .failure(UndoRefusal("\(FileOperation.escapedName(rename.from)): \(error.message); every name is as it was"))
            }
            parked.append((rename, temporary))
        }
        for entry in parked {
            do { try FileRename.noReplaceOrLook(entry.temporary, to: entry.rename.to) } catch {
                rollBack()
                return .failure(UndoRefusal("\(FileOperation.escapedName(entry.rename.to)): \(error.message); every name is as it was"))
            }
            placed.append(entry)
        }
        for rename in renames { moved(rename.from, rename.to) }
        return .success(renames.map { UndoAction.Rename(from: $0.to, to: $0.from, expected: PathStamp.of($0.to)!) })
    }

    /// Changes the stacks and writes them, under the lock: two changes never write out of order.
    private func save(_ change: (inout Stacks) -> Void) {
        withStacks { stacks in
            change(&stacks)
            if let data = try? JSONEncoder().encode(stacks) { write(Array(data), path) }
        }
    }

}

/// Why an undo (or a bulk rename) was not done; nothing was changed.
public struct UndoRefusal: Error, Sendable, Equatable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}
