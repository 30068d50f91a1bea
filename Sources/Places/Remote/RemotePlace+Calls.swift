import FileSystemKit
import SystemKit
import ThumbnailKit

extension RemotePlace {
    public func probe(_ folder: String) async -> FileSystemError? {
        do throws(FileSystemError) {
            // A listing's probe, with a probe's short deadline (2 s), as the local place's.
            _ = try await call(.probe(path: folder), deadline: min(callDeadline, 2))
            return nil
        } catch {
            return error
        }
    }

    public func item(at path: String) async throws(FileSystemError) -> PlaceItem {
        guard case .item(let item) = try await call(.item(path: path)).0 else { throw unexpected() }
        return item.item
    }

    public func read(_ path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8] {
        guard offset >= 0, length >= 0 else { throw FileSystemError(code: .invalid, path: path, context: "a negative range") }
        let (answer, bytes) = try await call(.read(.init(path: path, offset: offset, length: length)))
        guard case .bytes = answer else { throw unexpected() }
        return bytes
    }

    public func write(_ bytes: [UInt8], to path: String) async throws(FileSystemError) {
        guard bytes.count <= FrameCodec.maximumPayload else {
            throw FileSystemError(code: .unsupported, path: path, context: "a write of more than \(FrameCodec.maximumPayload >> 20) MB to a remote in one piece")
        }
        guard case .done = try await call(.write(path: path), payload: bytes).0 else { throw unexpected() }
    }

    public func rename(_ path: String, to newPath: String) async throws(FileSystemError) -> PathStamp? {
        guard case .stamp(let stamp) = try await call(.rename(.init(from: path, to: newPath))).0 else { throw unexpected() }
        return stamp
    }

    public func make(_ path: String, folder: Bool) async throws(FileSystemError) -> PathStamp? {
        guard case .stamp(let stamp) = try await call(.make(.init(path: path, folder: folder))).0 else { throw unexpected() }
        return stamp
    }

    public func trash(_ path: String) async throws(FileSystemError) -> TrashCan.Item {
        guard case .trashed(let item) = try await call(.trash(path: path)).0 else { throw unexpected() }
        return item
    }

    public func restore(_ item: TrashCan.Item) async throws(FileSystemError) -> String {
        guard case .restored(let path) = try await call(.restore(item), deadline: max(callDeadline, 10)).0 else { throw unexpected() }
        return path
    }

    public func capabilities(of folder: String, trial: Bool) async throws(FileSystemError) -> VolumeCapabilities {
        let answer = try await call(.capabilities(.init(folder: folder, trial: trial)), deadline: trial ? 30 : 2).0
        guard case .capabilities(let capabilities) = answer else { throw unexpected() }
        return capabilities.capabilities
    }

    /// Not yet over the link (#26): the browser does not watch folders today.
    public func watch(_ folder: String) throws(FileSystemError) -> AsyncStream<PlaceChange> {
        throw FileSystemError(code: .unsupported, path: folder, context: "watching a folder on \(TerminalText.escaped(name)) is not done yet")
    }

    /// Not yet over the link (#26): copies, moves and deletes on a remote need the questions
    /// and the progress to travel; until then they are refused before anything is done.
    public func perform(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report {
        throw FileSystemError(code: .unsupported, path: name, context: "copies, moves and deletes on \(TerminalText.escaped(name)) are not done yet; nothing was done")
    }

    /// Not yet over the link (#26): the batch would run on the remote with only its events
    /// crossing; until then each root is reported not listed, with why.
    public func thumbnailFolders(_ roots: [String], options: BatchOptions) -> AsyncStream<ThumbnailBatch.Event> {
        let reason = "thumbnailing a folder on \(TerminalText.escaped(name)) is not done yet"
        return AsyncStream { continuation in
            continuation.yield(.unlisted(roots.map { (folder: $0, reason: reason) }))
            continuation.yield(.found(total: 0))
            continuation.finish()
        }
    }

    /// Quick Look's pages, frames and members are not relayed yet (#26): Quick Look says so.
    public var previews: PreviewGenerator? { nil }
}
