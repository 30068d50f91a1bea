import FileSystemKit
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Quick Look's edits of a file on another place (a remote tab), as `EditSaver` does them here:
/// the file fetched in pieces to a private temporary on this computer (0600, `$TMPDIR`), edited
/// there by this computer's workers, and sent back in pieces to a hidden temporary beside the
/// original (`Place.writeChunk` with the original's mode: 0600 on its way, its mode once whole);
/// then, with the original's stamp on its place unchanged, the original goes to that place's
/// trash and the temporary takes its name (or, for a copy, "name (edited).ext"). On any failure
/// the temporary goes and the original is as it was (put back from the trash if it had gone).
public struct PlaceEditSaver: Sendable {
    let place: any Place
    let placement: EditSaver.Placement
    let generator: PreviewGenerator
    /// Bytes per piece fetched or sent (a frame each way on a remote's link).
    static let piece = 1 << 20

    public init(place: any Place, placement: EditSaver.Placement, generator: PreviewGenerator) {
        self.place = place
        self.placement = placement
        self.generator = generator
    }

    /// Does `edits` one after the other on a fetched copy of `path` and puts the result in place there.
    public func apply(_ edits: [FileEdit], to path: String) async throws -> EditSaver.Outcome {
        guard !edits.isEmpty else { throw EditError("nothing to do") }
        let item = try await place.item(at: path)
        guard item.isRegularFile, !item.isSymbolicLink else { throw EditError("\(TerminalText.escaped(path)) is not a regular file") }
        // The original's stamp there tells it unchanged before it is replaced; a place without
        // file identities (SFTP) cannot tell, so its files are not edited.
        let stamp = try await originalStamp(path)
        guard let before = stamp else { throw EditError("\(TerminalText.escaped(path)) is not there any more") }
        let (folder, name) = EditSaver.split(path)
        let suffix = EditSaver.suffix(of: name)
        var locals: [String] = []
        defer { for local in locals { _ = unlink(local) } }
        let original = try Self.localTemporary(suffix: suffix)
        locals.append(original)
        try await fetch(path, size: item.size, to: original)
        var current = original
        var results: [FileEditResult] = []
        for edit in edits {
            try Task.checkCancellation()
            let output = try Self.localTemporary(suffix: suffix)
            locals.append(output)
            results.append(try await generator.edit(edit, path: current, output: output))
            current = output
        }
        try Task.checkCancellation()
        try await checkUnchanged(path, before)
        let temporary = folder + "/" + EditSaver.leftoverPrefix(name) + "\(UInt32.random(in: 0...UInt32.max))" + (suffix.isEmpty ? "" : "." + suffix)
        let editName = edits.map(\.name).joined(separator: "+"), result = EditSaver.combined(results)
        do {
            try await send(current, to: temporary, mode: PlaceTransfer.keptMode(item.mode ?? 0o644))
            switch placement {
            case .copy:
                let target = try await placeBeside(temporary, as: name, in: folder)
                return EditSaver.Outcome(path: path, output: target, edit: editName, trashedItem: nil, result: result)
            case .replace:
                try await checkUnchanged(path, before)
                let trashed = try await put(temporary, inPlaceOf: path)
                return EditSaver.Outcome(path: path, output: path, edit: editName, trashedItem: trashed, result: result)
            }
        } catch {
            await discard(temporary)
            throw error
        }
    }

    /// The original to its place's trash and `temporary` under its name; the original put back
    /// when the rename fails.
    private func put(_ temporary: String, inPlaceOf path: String) async throws -> TrashCan.Item {
        let trashed: TrashCan.Item
        do { trashed = try await place.trash(path) } catch { throw EditError("cannot put the original in the trash (\(error.message)): nothing was replaced") }
        do {
            _ = try await place.rename(temporary, to: path)
        } catch {
            _ = try? await place.restore(trashed)
            throw EditError("cannot put the edited file in place (\(error.message)): the original is back")
        }
        return trashed
    }

    /// The original's stamp on its place; refused where the place has none (SFTP).
    private func originalStamp(_ path: String) async throws -> PathStamp? {
        do {
            return try await place.stamp(path)
        } catch {
            guard error.code == .unsupported else { throw error }
            throw EditError("edits are not done there: it has no file identities to tell that the original is unchanged")
        }
    }

    /// Fails when the original is not as it was when the edit began.
    private func checkUnchanged(_ path: String, _ before: PathStamp) async throws {
        guard try await place.stamp(path) == before else {
            throw EditError("\(TerminalText.escaped(path)) changed while it was being edited: nothing was replaced")
        }
    }

    /// A new empty file only this user can read, in `$TMPDIR` or `/tmp`, with `suffix` (which tells the libraries the format).
    private static func localTemporary(suffix: String) throws -> String {
        let base = ProcessEnvironment.variable("TMPDIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let tail = suffix.isEmpty ? "" : "." + suffix
        let file = try TemporaryFile.create(template: base + "/.qlbrowse-edit-XXXXXX" + tail, suffixLength: Int32(tail.fileSystemBytes.count))
        close(file.descriptor)
        return file.path
    }

    /// `size` bytes of `path` on the place, in pieces, into the local file `local`.
    private func fetch(_ path: String, size: Int, to local: String) async throws {
        let fd = open(local, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw EditError("cannot write a temporary here: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var offset = 0
        while offset < size {
            try Task.checkCancellation()
            let bytes = try await place.read(path, offset: offset, length: min(Self.piece, size - offset))
            guard !bytes.isEmpty else { throw EditError("\(TerminalText.escaped(path)) changed while it was fetched: nothing was replaced") }
            let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, bytes.count, off_t(offset)) }
            guard written == bytes.count else { throw EditError("cannot write a temporary here: \(String(cString: strerror(errno)))") }
            offset += bytes.count
        }
    }

    /// The local file `local` sent in pieces to `temporary` on the place, made 0600 and given `mode` after the last piece.
    private func send(_ local: String, to temporary: String, mode: UInt32) async throws {
        guard let bytes = FileDescriptorReader.readFile(local, upTo: Int.max) else { throw EditError("cannot read the edited file here") }
        var offset = 0
        repeat {
            try Task.checkCancellation()
            let end = min(offset + Self.piece, bytes.count)
            try await place.writeChunk(Array(bytes[offset..<end]), to: temporary, at: offset, last: end == bytes.count, mode: mode)
            offset = end
        } while offset < bytes.count
    }

    /// "name (edited).ext", or "name (edited 2).ext" and on when taken: the temporary renamed there.
    private func placeBeside(_ temporary: String, as name: String, in folder: String) async throws -> String {
        for attempt in 1...1000 {
            let target = folder + "/" + ConflictNames.labelled(name, attempt == 1 ? "edited" : "edited \(attempt)")
            do {
                _ = try await place.rename(temporary, to: target)
                return target
            } catch {
                guard error.code == .exists else { throw error }
            }
        }
        throw EditError("every name for the edited copy is taken")
    }

    /// The temporary removed from the place, if it is there.
    private func discard(_ temporary: String) async {
        guard (try? await place.item(at: temporary)) != nil else { return }
        _ = try? await place.perform(FileOperation(kind: .delete, sources: [temporary], destination: nil), events: FileOperationEvents())
    }
}
