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
    /// The largest journal read: 100 steps of very large moves, with room to spare. A larger file
    /// at the journal's place is not read whole, and is set aside as damaged.
    static let largestFile = 256 << 20

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
                // Read with a plain read(2): Foundation's file URL and its error for a missing
                // file cost every browser start 0.3 MB of code (issue #27). Only a regular file,
                // and at most `largestFile` (a larger one is set aside as damaged, not lost).
                let data = FileDescriptorReader.readRegularFile(path, upTo: Self.largestFile)
                let loaded = data.flatMap { try? JSONDecoder().decode(Stacks.self, from: Data($0)) }
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

    /// Undoes the last step on this computer's files; `moved` and `removed` let thumbnails follow.
    public func undo(trash: TrashCan, moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Outcome {
        replay(fromUndo: true, files: LocalUndoFiles(trash: trash), moved: moved, removed: removed)
    }

    /// Does again the last step undone, on this computer's files.
    public func redo(trash: TrashCan, moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Outcome {
        replay(fromUndo: false, files: LocalUndoFiles(trash: trash), moved: moved, removed: removed)
    }

    /// Undoes the last step through `files` (this computer's and the remotes' files, by the
    /// paths the step names); blocks while the calls are made.
    public func undo(files: any UndoFiles, moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Outcome {
        replay(fromUndo: true, files: files, moved: moved, removed: removed)
    }

    /// Does again the last step undone, through `files`.
    public func redo(files: any UndoFiles, moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Outcome {
        replay(fromUndo: false, files: files, moved: moved, removed: removed)
    }

    /// Does `actions` together on this computer's files: all, or (after a failure) none.
    public static func perform(_ actions: [UndoAction], trash: TrashCan, moved: (String, String) -> Void = { _, _ in },
                               removed: (String) -> Void = { _ in }) -> Result<[UndoAction], UndoRefusal> {
        perform(actions, files: LocalUndoFiles(trash: trash), moved: moved, removed: removed)
    }

    /// Does `actions` together through `files`: all, or (after a failure) none; a part that
    /// could not be taken back (the link dropped meanwhile) is named in the reason, and since
    /// every part only renames or goes through a trash, nothing is lost either way. Returns
    /// what undoes them, or why not.
    public static func perform(_ actions: [UndoAction], files: any UndoFiles, moved: (String, String) -> Void = { _, _ in },
                               removed: (String) -> Void = { _ in }) -> Result<[UndoAction], UndoRefusal> {
        for action in actions {
            if let problem = problem(action, files: files) { return .failure(UndoRefusal(problem)) }
        }
        var inverses: [UndoAction] = []
        for action in actions {
            switch run(action, files: files, moved: moved, removed: removed) {
            case .success(let inverse): inverses.append(inverse)
            case .failure(let failure):
                // What was done of this step is taken back, newest first.
                var stuck: [String] = []
                for inverse in inverses.reversed() {
                    if case .failure(let why) = run(inverse, files: files, moved: moved, removed: removed) { stuck.append(why.reason) }
                }
                return .failure(UndoRefusal(failure.reason + stuck.map { "; not taken back: \($0)" }.joined()))
            }
        }
        return .success(inverses.reversed())
    }

    private func replay(fromUndo: Bool, files: any UndoFiles, moved: (String, String) -> Void, removed: (String) -> Void) -> Outcome {
        guard let step = withStacks({ fromUndo ? $0.undo.last : $0.redo.last }) else {
            return Outcome(message: fromUndo ? "nothing to undo" : "nothing to redo", succeeded: false)
        }
        let verb = fromUndo ? "undone" : "redone"
        switch Self.perform(step.actions, files: files, moved: moved, removed: removed) {
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
