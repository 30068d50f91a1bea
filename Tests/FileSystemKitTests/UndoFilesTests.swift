import Synchronization
import SystemKit
import Testing
@testable import FileSystemKit

/// The journal through `UndoFiles` (what a remote's place gives it): each part checked by the
/// files' own stamps first, a part that fails midway taken back, and what could not be taken
/// back (the link dropped meanwhile) named in the reason.
@Suite struct UndoFilesTests {
    /// Files in memory: names and their stamps; renames that fail when their source is listed.
    final class Memory: UndoFiles {
        let names: Mutex<[String: PathStamp]>
        let failing: Set<String>
        init(_ names: [String], failing: Set<String> = []) {
            var stamps: [String: PathStamp] = [:]
            for (index, name) in names.enumerated() { stamps[name] = Self.stamp(UInt64(index + 1)) }
            self.names = Mutex(stamps)
            self.failing = failing
        }
        static func stamp(_ inode: UInt64) -> PathStamp {
            PathStamp(device: 7, inode: inode, isFolder: false, size: 1, seconds: 1, nanoseconds: 0)
        }
        func stamp(_ path: String) throws(FileSystemError) -> PathStamp? { names.withLock { $0[path] } }
        func rename(_ from: String, to: String) throws(FileSystemError) {
            if failing.contains(from) { throw FileSystemError(code: .notResponding, path: from, context: "ssh://nas is not responding") }
            try names.withLock { names throws(FileSystemError) in
                guard names[to] == nil, let stamp = names.removeValue(forKey: from) else { throw FileSystemError(code: .exists, path: to) }
                names[to] = stamp
            }
        }
        func move(_ from: String, to: String, moved: (String, String) -> Void, removed: (String) -> Void) throws(FileSystemError) { try rename(from, to: to) }
        func trash(_ path: String) throws(FileSystemError) -> TrashCan.Item {
            try rename(path, to: path + ".trashed")
            return TrashCan.Item(originalPath: path, trashedPath: path + ".trashed", infoPath: path + ".info")
        }
        func restore(_ item: TrashCan.Item) throws(FileSystemError) -> String {
            try rename(item.trashedPath, to: item.originalPath)
            return item.originalPath
        }
    }

    @Test func aStepIsCheckedByTheFilesOwnStampsAndUndoneThroughThem() {
        let files = Memory(["ssh://nas/b", "ssh://nas/copy"])
        let step: [UndoAction] = [.rename(from: "ssh://nas/b", to: "ssh://nas/a", expected: Memory.stamp(1)),
                                  .discard("ssh://nas/copy", expected: Memory.stamp(2))]
        guard case .success(let inverse) = UndoJournal.perform(step, files: files) else { Issue.record("refused"); return }
        #expect(files.names.withLock { Set($0.keys) } == ["ssh://nas/a", "ssh://nas/copy.trashed"])
        #expect(UndoJournal.perform(inverse, files: files).isSuccess)
        #expect(files.names.withLock { Set($0.keys) } == ["ssh://nas/b", "ssh://nas/copy"])
        // Another file under the name now: refused before anything is done.
        let changed = [UndoAction.discard("ssh://nas/copy", expected: Memory.stamp(9))]
        #expect(UndoJournal.perform(changed, files: files) == .failure(UndoRefusal("copy is another file now")))
    }

    @Test func aPartThatFailsIsTakenBackAndWhatCouldNotBeIsNamed() {
        // The second part fails (the link dropped); taking back the first fails too: both said.
        let files = Memory(["ssh://nas/b", "ssh://nas/d"], failing: ["ssh://nas/d", "ssh://nas/a"])
        let step: [UndoAction] = [.rename(from: "ssh://nas/b", to: "ssh://nas/a", expected: Memory.stamp(1)),
                                  .rename(from: "ssh://nas/d", to: "ssh://nas/c", expected: Memory.stamp(2))]
        guard case .failure(let refusal) = UndoJournal.perform(step, files: files) else { Issue.record("done"); return }
        #expect(refusal.reason == "ssh://nas is not responding; not taken back: ssh://nas is not responding", "\(refusal.reason)")
        // Nothing lost: every file is under one name or the other.
        #expect(files.names.withLock { Set($0.keys) } == ["ssh://nas/a", "ssh://nas/d"])
    }
}
