import FileSystemKit
import Places
import Synchronization
import SystemKit
import ThumbnailKit

/// A place that is not the local disk: folders and files held in memory, for tests of what sits
/// above the place layer. Lists in batches of `batchSize` (as a remote place would); a folder
/// named in `unreachable` fails as a lost volume. What the tests do not use answers `.unsupported`.
final class MemoryPlace: Place {
    let name = "memory"
    /// Folder → its entries (name, size, is a folder).
    private let folders: Mutex<[String: [(name: String, size: Int, isFolder: Bool)]]>
    private let batchSize: Int
    private let unreachable: Set<String>

    init(_ folders: [String: [(name: String, size: Int, isFolder: Bool)]], batchSize: Int = 2, unreachable: Set<String> = []) {
        self.folders = Mutex(folders)
        self.batchSize = batchSize
        self.unreachable = unreachable
    }

    func list(_ folder: String, deliver: @escaping @Sendable (EntryStore, Bool, FileSystemError?) -> Void) -> PlaceTask {
        let task = PlaceTask()
        if unreachable.contains(folder) {
            deliver(EntryStore(), true, FileSystemError(code: .volumeGone, path: folder, context: "the memory is gone"))
            return task
        }
        guard let entries = folders.withLock({ $0[folder] }) else {
            deliver(EntryStore(), true, FileSystemError(code: .notFound, path: folder, context: "no such folder in memory"))
            return task
        }
        let batches = stride(from: 0, to: max(entries.count, 1), by: batchSize).map { Array(entries[$0..<min($0 + batchSize, entries.count)]) }
        for (index, batch) in batches.enumerated() where !task.isCancelled {
            deliver(EntryStore(batch.map { Entry(name: $0.name, isDirectory: $0.isFolder, size: $0.size) }), index == batches.count - 1, nil)
        }
        return task
    }

    func item(at path: String) async throws(FileSystemError) -> PlaceItem {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let folder = slash == path.startIndex ? "/" : String(path[..<slash]), name = String(path[path.index(after: slash)...])
        if folders.withLock({ $0[path] }) != nil { return PlaceItem(path: path, isDirectory: true, size: 0, modified: 0) }
        guard let entry = folders.withLock({ $0[folder] })?.first(where: { $0.name == name }) else { throw FileSystemError(code: .notFound, path: path) }
        return PlaceItem(path: path, isDirectory: entry.isFolder, size: entry.size, modified: 0)
    }

    func probe(_ folder: String) async -> FileSystemError? {
        unreachable.contains(folder) ? FileSystemError(code: .volumeGone, path: folder) : nil
    }

    func read(_ path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8] { throw Self.unsupported }
    func write(_ bytes: [UInt8], to path: String) async throws(FileSystemError) { throw Self.unsupported }
    func watch(_ folder: String) throws(FileSystemError) -> AsyncStream<PlaceChange> { throw Self.unsupported }
    func rename(_ path: String, to newPath: String) async throws(FileSystemError) -> PathStamp? { throw Self.unsupported }
    func make(_ path: String, folder: Bool) async throws(FileSystemError) -> PathStamp? { throw Self.unsupported }
    func trash(_ path: String) async throws(FileSystemError) -> TrashCan.Item { throw Self.unsupported }
    func restore(_ item: TrashCan.Item) async throws(FileSystemError) -> String { throw Self.unsupported }
    func perform(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report { throw Self.unsupported }
    func capabilities(of folder: String, trial: Bool) async throws(FileSystemError) -> VolumeCapabilities { throw Self.unsupported }

    func fetchThumbnails(for items: [PlaceItem], options: ThumbnailOptions,
                         perItem: @escaping @Sendable (PlaceItem, Result<Representation, ThumbnailError>) -> Void,
                         completion: @escaping @Sendable (ThumbnailError?) -> Void) -> PlaceProgress {
        let progress = PlaceProgress(totalCount: items.count)
        for item in items {
            progress.completeOne()
            perItem(item, .failure(ThumbnailError(.unsupported, "no pictures in memory")))
        }
        completion(nil)
        return progress
    }

    private static let unsupported = FileSystemError(code: .unsupported, context: "not in memory")
}
