import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A copy, move, trash or delete of several items that never loses data. Everything is checked
/// before the first byte is written (free space, FAT's 4 GiB limit, read-only volumes, names the
/// target refuses, case clashes); each item is all or nothing: a copy goes through a temporary
/// and a rename, a move across volumes deletes its source only after the copy is complete and on
/// disk, and an item that is cancelled or fails leaves nothing of itself at the destination.
/// Blocking: run it on a thread of its own (`VolumeIO`).
public final class FileOperation: Sendable {
    public let kind: Kind
    public let sources: [String]
    /// The folder copies and moves go into.
    public let destination: String?
    /// The items found by `problem(destinationCapabilities:)`, so that `run` does not walk again.
    let checkedTree = Mutex<[TreeItem]?>(nil)
    /// Each file copied, as it was when its copy began: a move checks its sources against it
    /// right before removing them.
    let copiedStates = Mutex<[String: FileCopier.SourceState]>([:])
    private let cancelledFlag = Atomic<Bool>(false)
    private let pausedFlag = Atomic<Bool>(false)

    /// Read every copied file back and compare it with its original before putting it in place.
    public let verifiesContent: Bool

    /// A move from a place without a trash (a server reached by SFTP) may delete each source for
    /// good once its copy is in place and checked: the user's explicit yes (`files move
    /// --delete-sources`); without it such a move is refused whole, before anything is copied.
    public let deletesSourcesForGood: Bool

    public init(kind: Kind, sources: [String], destination: String?, verifiesContent: Bool = false, deletesSourcesForGood: Bool = false) {
        self.verifiesContent = verifiesContent
        self.deletesSourcesForGood = deletesSourcesForGood
        self.kind = kind
        self.sources = sources
        self.destination = destination
    }

    public func cancel() { cancelledFlag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { cancelledFlag.load(ordering: .relaxed) }
    public func setPaused(_ paused: Bool) { pausedFlag.store(paused, ordering: .relaxed) }
    public var isPaused: Bool { pausedFlag.load(ordering: .relaxed) }
}
