import FileSystemKit
import Places
import Synchronization
import SystemKit
import ThumbnailKit

/// A place that is not the local disk: folders and files held in memory, for tests of what sits
/// above the place layer. Lists in batches of `batchSize` (as a remote place would); a folder
/// named in `unreachable` fails as a lost volume. Its thumbnails are drawn in memory (a square
/// of one colour, source "memory", progressively an icon then the picture), and it writes down
/// every item and batch root it was asked for, so a test can tell a picture came from here and
/// not from the disk. What the tests do not use answers `.unsupported`.
final class MemoryPlace: Place {
    let name = "memory"
    /// The items `fetchThumbnails` was asked for, and the roots `thumbnailFolders` was, in order.
    let thumbnailsAsked = Mutex<[PlaceItem]>([])
    let batchesAsked = Mutex<[[String]]>([])
    let previews: PreviewGenerator? = nil
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

    func item(at path: String) async throws(FileSystemError) -> PlaceItem { try itemNow(path) }

    func probe(_ folder: String) async -> FileSystemError? {
        unreachable.contains(folder) ? FileSystemError(code: .volumeGone, path: folder) : nil
    }

    func read(_ path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8] { throw Self.unsupported }
    func write(_ bytes: [UInt8], to path: String) async throws(FileSystemError) { throw Self.unsupported }
    func writeChunk(_ bytes: [UInt8], to path: String, at offset: Int, last: Bool, mode: UInt32?) async throws(FileSystemError) { throw Self.unsupported }
    func setMode(_ path: String, to mode: UInt32) async throws(FileSystemError) { throw Self.unsupported }
    func textLines(_ path: String, from first: Int, count: Int) async throws(FileSystemError) -> TextFileWindow.Lines { throw Self.unsupported }
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
        thumbnailsAsked.withLock { $0 += items }
        let progress = PlaceProgress(totalCount: items.count)
        let side = Int(options.size * options.scale)
        for item in items {
            progress.completeOne()
            guard (try? itemNow(item.path)) != nil else {
                perItem(item, .failure(ThumbnailError(.unreadable, "not in memory")))
                continue
            }
            let types = options.progressive ? RepresentationType.allCases.filter(options.types.contains) : [options.types.max() ?? .icon]
            for type in types {
                let image = PixelImage(width: side, height: side, filledWith: RGBA(200, 40, 40))
                perItem(item, .success(Representation(type: type, image: image, source: "memory", contentType: ContentType("image/png"))))
            }
        }
        completion(nil)
        return progress
    }

    /// Every file under the roots, each "generated" here: the walk and the pictures are the place's.
    func thumbnailFolders(_ roots: [String], options: BatchOptions) -> AsyncStream<ThumbnailBatch.Event> {
        batchesAsked.withLock { $0.append(roots) }
        let (stream, continuation) = AsyncStream<ThumbnailBatch.Event>.makeStream()
        var files: [String] = []
        var pending = roots
        while let folder = pending.popLast() {
            for entry in folders.withLock({ $0[folder] }) ?? [] {
                let path = folder == "/" ? "/" + entry.name : folder + "/" + entry.name
                if entry.isFolder { pending.append(path) } else { files.append(path) }
            }
        }
        continuation.yield(.found(total: files.count))
        for path in files.sorted() {
            let image = PixelImage(width: options.box.width, height: options.box.height, filledWith: RGBA(0, 0, 0))
            continuation.yield(.file(path: path, outcome: .generated(Representation(type: .thumbnail, image: image, source: "memory", contentType: ContentType("image/png")))))
        }
        continuation.finish()
        return stream
    }

    private func itemNow(_ path: String) throws(FileSystemError) -> PlaceItem {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let folder = slash == path.startIndex ? "/" : String(path[..<slash]), name = String(path[path.index(after: slash)...])
        if folders.withLock({ $0[path] }) != nil { return PlaceItem(path: path, isDirectory: true, size: 0, modified: 0) }
        guard let entry = folders.withLock({ $0[folder] })?.first(where: { $0.name == name }) else { throw FileSystemError(code: .notFound, path: path) }
        return PlaceItem(path: path, isDirectory: entry.isFolder, size: entry.size, modified: 0)
    }

    private static let unsupported = FileSystemError(code: .unsupported, context: "not in memory")
}
