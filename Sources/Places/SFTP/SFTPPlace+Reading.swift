import FileSystemKit
import SystemKit

extension SFTPPlace {
    /// The most bytes asked in one READ (OpenSSH's server sends at most 256 KiB; 64 KiB keeps
    /// many in flight without one answer holding the link).
    static let readChunk = 64 << 10

    public func probe(_ folder: String) async -> FileSystemError? {
        do throws(FileSystemError) {
            guard case .handle(_, let handle) = try await call(.openDirectory(path: folder.fileSystemBytes), path: folder,
                                                               deadline: min(callDeadline, 2)) else { return unexpected(folder) }
            closeHandle(handle)
            return nil
        } catch {
            return error
        }
    }

    public func item(at path: String) async throws(FileSystemError) -> PlaceItem {
        async let link = try? await call(.lstat(path: path.fileSystemBytes), path: path)
        guard case .attributes(_, let target) = try await call(.stat(path: path.fileSystemBytes), path: path) else { throw unexpected(path) }
        var isLink = false
        if case .attributes(_, let own)? = await link { isLink = own.isSymbolicLink }
        return Self.item(path, target, isLink: isLink)
    }

    static func item(_ path: String, _ attributes: SFTPAttributes, isLink: Bool) -> PlaceItem {
        PlaceItem(path: path, isDirectory: attributes.isDirectory, isSymbolicLink: isLink, isRegularFile: attributes.isRegularFile,
                  size: Int(clamping: attributes.size ?? 0), modified: Int(attributes.modified ?? 0),
                  mode: attributes.permissions.map { $0 & 0o7777 })
    }

    public func read(_ path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8] {
        guard offset >= 0, length >= 0 else { throw FileSystemError(code: .invalid, path: path, context: "a negative range") }
        let handle = try await open(path, flags: SFTPRequest.readFlag)
        defer { closeHandle(handle) }
        return try await read(handle, path: path, offset: offset, length: length)
    }

    /// Opens `path`; its handle.
    func open(_ path: String, flags: UInt32) async throws(FileSystemError) -> [UInt8] {
        guard case .handle(_, let handle) = try await call(.open(path: path.fileSystemBytes, flags: flags), path: path) else { throw unexpected(path) }
        return handle
    }

    /// Closes `handle` without waiting for the answer (nothing waits on a close of a read).
    func closeHandle(_ handle: [UInt8]) {
        guard let open = try? currentConnection() else { return }
        open.send(.close(handle: handle)) { _ in }
    }

    /// Up to `length` bytes from `offset` of the open `handle`: every chunk asked at once, put
    /// in order; a short answer before the end asks again from where it stopped.
    func read(_ handle: [UInt8], path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(length, 64 << 20))
        while out.count < length {
            let start = offset + out.count, wanted = min(length - out.count, 64 * Self.readChunk)
            let chunks = stride(from: 0, to: wanted, by: Self.readChunk).map { (start + $0, min(Self.readChunk, wanted - $0)) }
            let answers = await withTaskGroup(of: (Int, Result<[UInt8]?, FileSystemError>).self) { group in
                for (index, (at, count)) in chunks.enumerated() {
                    group.addTask { [self] in
                        do throws(FileSystemError) {
                            // The answers come one after another: the last of 64 waits for the others
                            // (a link of 1 Mbit/s carries a chunk in 0.5 s).
                            let reply = try await call(.read(handle: handle, offset: UInt64(at), length: UInt32(count)), path: path,
                                                       deadline: max(callDeadline, 10) + Double(index) * 0.5, allowsEndOfFile: true)
                            if case .data(_, let bytes) = reply { return (index, .success(bytes)) }
                            return (index, .success(nil))  // the end of the file
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var answers = [Result<[UInt8]?, FileSystemError>](repeating: .success(nil), count: chunks.count)
                for await (index, answer) in group { answers[index] = answer }
                return answers
            }
            var ended = false
            for (answer, chunk) in zip(answers, chunks) {
                guard let bytes = try answer.get(), !bytes.isEmpty else { ended = true; break }
                out += bytes.prefix(chunk.1)
                if bytes.count < chunk.1 { break }
            }
            if ended { break }
            if Task.isCancelled { throw FileSystemError(code: .cancelled, path: path) }
        }
        return out
    }

    func currentConnection() throws(FileSystemError) -> SFTPConnection {
        guard let open = openConnection, open.gone == nil else { throw FileSystemError(code: .volumeGone, path: name) }
        return open
    }

    public func textLines(_ path: String, from first: Int, count: Int) async throws(FileSystemError) -> TextFileWindow.Lines {
        let item = try await item(at: path)
        guard item.isRegularFile else { throw FileSystemError(code: .unsupported, path: path, context: "not a regular file") }
        // Read a window at a time until the lines asked are there (a huge log is never read whole
        // when its start is shown); past the end, the last `count` lines.
        let handle = try await open(path, flags: SFTPRequest.readFlag)
        defer { closeHandle(handle) }
        var lines: [[UInt8]] = [], partial: [UInt8] = [], offset = 0, ended = false
        let window = 1 << 20, limit = 64 << 20
        while !ended, lines.count < first + count, offset < limit {
            let bytes = try await read(handle, path: path, offset: offset, length: window)
            offset += bytes.count
            ended = bytes.count < window
            for byte in bytes {
                if byte == 0x0A {
                    lines.append(partial)
                    partial.removeAll(keepingCapacity: true)
                } else if partial.count < TextFileWindow.maxLineBytes {
                    partial.append(byte)
                }
            }
        }
        if ended, !partial.isEmpty { lines.append(partial) }
        let total: Int? = ended ? lines.count : nil
        let start = ended && first >= lines.count ? max(0, lines.count - count) : first
        return TextFileWindow.Lines(first: start, lines: Array(lines.dropFirst(start).prefix(count)), total: total)
    }
}
