import FileSystemKit
import Synchronization
import SystemKit

extension PlaceTransfer {
    /// How one chosen item ended.
    enum Outcome: Sendable {
        case placed(String)
        case skipped
        case cancelled
        /// With the temporary that could not be removed (the destination went away), if any.
        case failed(FileSystemError, leftover: String?)
    }

    /// Copies one chosen item (`items`, the top first) under a temporary name in `folder`, then
    /// renames it into place; removes the temporary when anything fails or is cancelled, except
    /// a file's whose link was lost with some of it in (kept, its prefix in `journal`, for the
    /// next copy to go on with). `resuming`: a cut copy's temporary of this file to go on with.
    func place(_ path: String, _ items: [Item], into folder: String, operation: FileOperation, events: FileOperationEvents,
               progress: Tally, journal: TransferJournal?, resuming: Resumption? = nil) async -> Outcome {
        let top = items[0]
        let name = FileOperation.name(path)
        var target = join(folder, name)
        var replaces = false
        if (try? await destination.item(at: target)) != nil {
            let (choice, _) = await Self.ask(events, FileOperation.Conflict(source: path, destination: target, destinationIsFolder: top.isDirectory))
            switch choice {
            case .skip: return .skipped
            case .overwrite:
                // Without a trash the old item would be deleted for good: refused before a byte is sent.
                guard destination.hasTrash else { return .failed(notOverwritten(target), leftover: nil) }
                replaces = true
            case .keepBoth:
                var index = 2
                while (try? await destination.item(at: target)) != nil, index < 10_000 {
                    target = join(folder, ConflictNames.numbered(name, index, isFolder: top.isDirectory))
                    index += 1
                }
            }
        }
        var temporary = join(folder, FileCopier.temporaryName(for: name))
        let resume = await adopt(resuming, for: top)
        if let resume, let resuming { temporary = resuming.leftover.temporary }
        journal?.update(path) { $0.state = .copying; $0.temporary = temporary; $0.target = target; $0.resume = resume }
        let ledger = ledger(for: top, from: resume, path: path, journal: journal)
        do throws(FileSystemError) {
            for item in items {
                let at = item.relative == top.relative ? temporary : temporary + item.relative.dropFirst(top.relative.count)
                if item.isDirectory {
                    _ = try await destination.make(at, folder: true)
                    // Private while it is filled; its own mode once all of it is in.
                    if item.mode != nil { try await destination.setMode(at, to: 0o700) }
                } else {
                    try await copyFile(item, to: at, from: resume?.written ?? 0, ledger: ledger, operation: operation, events: events, progress: progress)
                }
                if operation.isCancelled { throw .cancelled }
            }
            try await giveFolderModes(items, under: temporary)
            // The old item goes to the trash, never lost, right before the new one takes its name.
            if replaces { _ = try await destination.trash(target) }
            _ = try await destination.rename(temporary, to: target)
            return .placed(target)
        } catch {
            ledger?.flush()
            // The link lost with a prefix in: kept, not lost, for the next copy to go on from.
            if let ledger, ledger.prefix.written > 0, error.code == .volumeGone || error.code == .notResponding {
                return .failed(error, leftover: temporary)
            }
            let leftover = await discard(temporary)
            if error.code == .cancelled { return leftover == nil ? .cancelled : .failed(error, leftover: leftover) }
            return .failed(error, leftover: leftover)
        }
    }

    /// One file in pieces, from `start` (0, or where a resumed copy's temporary is whole up to);
    /// each piece written goes into `ledger`. Fails `.sourceChanged` when the source is not as it was listed.
    private func copyFile(_ item: Item, to temporary: String, from start: Int, ledger: PieceLedger?, operation: FileOperation,
                          events: FileOperationEvents, progress: Tally) async throws(FileSystemError) {
        if start > 0 {
            // What the cut copy wrote counts as done; the rest goes as a fresh copy's would.
            events.progress(progress.state.withLock { state in
                state.bytesDone += Int64(start)
                return state
            })
        } else if let copier = source as? any ServerSideCopying, (source as AnyObject) === (destination as AnyObject),
           try await copier.copyOnServer(item.path, to: temporary, size: item.size) {
            // Made 0600 there (`copyOnServer`): now its source's mode.
            try await destination.setMode(temporary, to: item.mode ?? 0o644)
            events.progress(progress.state.withLock { state in
                state.bytesDone += Int64(item.size)
                state.current = item.path
                return state
            })
            return try await checkUnchanged(item)
        }
        // The first piece makes the file (never over a name); the others go `inFlight` at a
        // time, each at its own offset, so a link's round trip is not paid once per piece; then
        // the file is flushed before it may be renamed into place.
        if start == 0 {
            let first = min(piece, item.size)
            try await copyPiece(item, at: 0, length: first, to: temporary, last: item.size <= piece, ledger: ledger, operation: operation,
                                events: events, progress: progress)
        }
        if item.size > piece || start > 0 {
            let offsets = Array(stride(from: start == 0 ? piece : start, to: item.size, by: piece))
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    var next = 0
                    for _ in 0..<min(inFlight, offsets.count) {
                        let at = offsets[next]
                        next += 1
                        group.addTask { try await copyPiece(item, at: at, length: min(piece, item.size - at), to: temporary, last: false,
                                                            ledger: ledger, operation: operation, events: events, progress: progress) }
                    }
                    while try await group.next() != nil, next < offsets.count {
                        let at = offsets[next]
                        next += 1
                        group.addTask { try await copyPiece(item, at: at, length: min(piece, item.size - at), to: temporary, last: false,
                                                            ledger: ledger, operation: operation, events: events, progress: progress) }
                    }
                    try await group.waitForAll()
                }
            } catch {
                throw (error as? FileSystemError) ?? .cancelled
            }
            try await retried { () throws(FileSystemError) in try await destination.writeChunk([], to: temporary, at: item.size, last: true, mode: item.mode) }
        }
        try await checkUnchanged(item)
    }

    /// Fails `.sourceChanged` when the source is not as it was listed.
    private func checkUnchanged(_ item: Item) async throws(FileSystemError) {
        let after = try await source.item(at: item.path)
        guard after.size == item.size, after.modified == item.modified else {
            throw FileSystemError(code: .sourceChanged, path: item.path, context: "it changed while it was copied; not put in place")
        }
    }

    /// One piece: `length` bytes read at `offset` and written at the same offset.
    private func copyPiece(_ item: Item, at offset: Int, length: Int, to temporary: String, last: Bool, ledger: PieceLedger?,
                           operation: FileOperation, events: FileOperationEvents, progress: Tally) async throws(FileSystemError) {
        while operation.isPaused && !operation.isCancelled { try? await Task.sleep(for: .milliseconds(100)) }
        if operation.isCancelled || Task.isCancelled { throw .cancelled }
        let bytes = try await retried { () throws(FileSystemError) in try await source.read(item.path, offset: offset, length: length) }
        guard bytes.count == length else {
            throw FileSystemError(code: .sourceChanged, path: item.path, context: "it changed while it was copied; not put in place")
        }
        try await retried { () throws(FileSystemError) in try await destination.writeChunk(bytes, to: temporary, at: offset, last: last, mode: item.mode) }
        ledger?.written(bytes, at: offset)
        let now = progress.state.withLock { state in
            state.bytesDone += Int64(bytes.count)
            state.current = item.path
            return state
        }
        events.progress(now)
    }

    /// `call`, asked once more when its link dropped (the place connects again): reading a range
    /// and writing the same bytes at the same offset can both be done twice.
    private func retried<Value>(_ call: () async throws(FileSystemError) -> Value) async throws(FileSystemError) -> Value {
        do {
            return try await call()
        } catch where error.code == .volumeGone {
            return try await call()
        }
    }

    /// Removes a temporary (a file or a folder) from the destination; its path when that fails.
    private func discard(_ temporary: String) async -> String? {
        do throws(FileSystemError) {
            _ = try await destination.item(at: temporary)
        } catch {
            // Not there (never made): nothing to remove; the place unreachable: it is left.
            return error.code == .notFound ? nil : temporary
        }
        let removal = FileOperation(kind: .delete, sources: [temporary], destination: nil)
        guard let report = try? await destination.perform(removal, events: FileOperationEvents()), report.notDone.isEmpty else {
            return temporary
        }
        return nil
    }

    private func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
