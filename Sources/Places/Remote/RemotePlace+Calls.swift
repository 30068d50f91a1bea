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

    public func writeChunk(_ bytes: [UInt8], to path: String, at offset: Int, last: Bool, mode: UInt32?) async throws(FileSystemError) {
        guard bytes.count <= FrameCodec.maximumPayload else {
            throw FileSystemError(code: .invalid, path: path, context: "a piece of more than \(FrameCodec.maximumPayload >> 20) MB")
        }
        let answer = try await call(.append(.init(path: path, offset: offset, last: last, mode: mode)), payload: bytes, deadline: max(callDeadline, 30)).0
        guard case .done = answer else { throw unexpected() }
    }

    /// The remote's `chmod` (protocol version 7).
    public func setMode(_ path: String, to mode: UInt32) async throws(FileSystemError) {
        guard case .done = try await call(.chmod(.init(path: path, mode: mode))).0 else { throw unexpected() }
    }

    public func textLines(_ path: String, from first: Int, count: Int) async throws(FileSystemError) -> TextFileWindow.Lines {
        let (answer, bytes) = try await call(.text(.init(path: path, first: first, count: count)), deadline: max(callDeadline, 10))
        guard case .text(let start, let lineCount, let total) = answer else { throw unexpected() }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(lineCount).map(Array.init)
        guard lines.count == lineCount else { throw unexpected() }
        return TextFileWindow.Lines(first: start, lines: lines, total: total)
    }

    public func rename(_ path: String, to newPath: String) async throws(FileSystemError) -> PathStamp? {
        guard case .stamp(let stamp) = try await call(.rename(.init(from: path, to: newPath))).0 else { throw unexpected() }
        return stamp
    }

    /// The remote's own stamp of `path` (protocol version 6).
    public func stamp(_ path: String) async throws(FileSystemError) -> PathStamp? {
        guard case .stamp(let stamp) = try await call(.stamp(path: path)).0 else { throw unexpected() }
        return stamp
    }

    public var stampsFiles: Bool { true }

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
}
