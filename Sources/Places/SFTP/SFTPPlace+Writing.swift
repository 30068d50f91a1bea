import FileSystemKit
import SystemKit

extension SFTPPlace {
    /// The most bytes sent in one WRITE (OpenSSH's server reads packets of up to 256 KiB; 64 KiB
    /// keeps a piece's writes on their way together without one holding the link).
    static let writeChunkSize = 64 << 10

    /// One piece of a copy (`PlaceTransfer`): offset 0 makes the file with OPEN CREAT|EXCL (never
    /// over an existing name: `.exists`), a later piece opens the file that is there (never makes
    /// one, so a temporary removed meanwhile is not silently begun again). The piece goes as
    /// WRITEs of 64 KiB at their offsets, all on their way at once, then CLOSE, whose answer is
    /// awaited (a server that could not write says so there). `last` flushes the file with
    /// `fsync@openssh.com` when the server offers it; one without it is not asked again, and
    /// nothing is said (SFTP v3 has no other flush). A piece can be written twice at the same
    /// offset with the same bytes: that is how a dropped link resumes. With a `mode`, the OPEN
    /// that makes the file says 0600 in its ATTRS and a SETSTAT after the `last` piece's CLOSE
    /// gives it `mode`.
    public func writeChunk(_ bytes: [UInt8], to path: String, at offset: Int, last: Bool, mode: UInt32?) async throws(FileSystemError) {
        guard offset >= 0 else { throw FileSystemError(code: .invalid, path: path, context: "a negative offset") }
        let flags = SFTPRequest.writeFlag | (offset == 0 ? SFTPRequest.createFlag | SFTPRequest.exclusiveFlag : 0)
        let handle: [UInt8]
        do throws(FileSystemError) {
            if offset == 0, mode != nil {
                guard case .handle(_, let made) = try await call(.create(path: path.fileSystemBytes, flags: flags, permissions: 0o600), path: path) else {
                    throw unexpected(path)
                }
                handle = made
            } else {
                handle = try await open(path, flags: flags)
            }
        } catch {
            // internal-sftp answers a taken name with a plain failure: say what it was.
            if offset == 0, error.code != .notResponding, error.code != .volumeGone, await exists(path) {
                throw FileSystemError(code: .exists, path: path)
            }
            throw error
        }
        do throws(FileSystemError) {
            try await write(bytes, to: handle, path: path, at: offset)
            if last { try await flush(handle, path: path) }
        } catch {
            closeHandle(handle)
            throw error
        }
        _ = try await call(.close(handle: handle), path: path)
        if last, let mode { try await setMode(path, to: mode) }
    }

    /// SETSTAT with the permissions only.
    public func setMode(_ path: String, to mode: UInt32) async throws(FileSystemError) {
        _ = try await call(.setPermissions(path: path.fileSystemBytes, permissions: mode & 0o7777), path: path)
    }

    /// `bytes` written at `offset` of the open `handle`, in chunks all asked at once.
    private func write(_ bytes: [UInt8], to handle: [UInt8], path: String, at offset: Int) async throws(FileSystemError) {
        guard !bytes.isEmpty else { return }
        let chunks = stride(from: 0, to: bytes.count, by: Self.writeChunkSize).map { ($0, min(Self.writeChunkSize, bytes.count - $0)) }
        let failure = await withTaskGroup(of: FileSystemError?.self) { group in
            for (index, (start, count)) in chunks.enumerated() {
                group.addTask { [self] in
                    do throws(FileSystemError) {
                        // The chunks cross one after another: the last waits for the others.
                        _ = try await call(.write(handle: handle, offset: UInt64(offset + start), data: Array(bytes[start..<(start + count)])),
                                           path: path, deadline: max(callDeadline, 10) + Double(index) * 0.5)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var first: FileSystemError?
            for await failure in group where first == nil { first = failure }
            return first
        }
        if let failure { throw failure }
    }

    /// `fsync@openssh.com` on `handle`, unless the server said it has none.
    func flush(_ handle: [UInt8], path: String) async throws(FileSystemError) {
        guard !lacksFsync.load(ordering: .relaxed) else { return }
        do throws(FileSystemError) {
            _ = try await call(.fsync(handle: handle), path: path, deadline: max(callDeadline, 30))
        } catch where error.code == .unsupported {
            lacksFsync.store(true, ordering: .relaxed)
        }
    }

    /// Whether something is at `path`.
    func exists(_ path: String) async -> Bool {
        (try? await call(.lstat(path: path.fileSystemBytes), path: path)) != nil
    }
}
