import FileSystemKit
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// How an edit's result takes its place: the original kept in the freedesktop Trash and the
/// result under its name, or the result beside it as "name (edited).ext". Either way the result
/// is written to a temporary in the same folder first, flushed by the worker, and renamed into
/// place; the original is checked unchanged before it is touched; on any failure the temporary
/// goes and the original stays as it was.
public struct EditSaver: Sendable {
    public enum Placement: Sendable { case replace, copy }

    /// What became of the files.
    public struct Outcome: Encodable, Sendable {
        public let path: String
        public let output: String
        public let edit: String
        /// The original in the Trash, when the result replaced it.
        public let trashedItem: TrashCan.Item?
        public let result: FileEditResult

        public var trashed: String? { trashedItem?.trashedPath }

        /// What the result is, in words: its size, the pages turned, the part of the original
        /// kept, and what the worker noticed ("starts at 0:08.3, the nearest keyframe").
        public var details: [String] {
            var words: [String] = []
            if let width = result.width, let height = result.height { words.append("\(width)×\(height)") }
            if let pages = result.pages { words.append("\(pages) page\(pages == 1 ? "" : "s") turned") }
            if let marks = result.marks { words.append("\(marks) mark\(marks == 1 ? "" : "s") added") }
            if let start = result.start, let end = result.end {
                words.append("\(FileEditResult.clock(start))–\(FileEditResult.clock(end)) of the original")
            }
            return words + result.notes
        }

        enum CodingKeys: String, CodingKey { case path, output, edit, trashed, result }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(output, forKey: .output)
            try container.encode(edit, forKey: .edit)
            try container.encodeIfPresent(trashed, forKey: .trashed)
            try container.encode(result, forKey: .result)
        }
    }

    /// Edits get a worker of their own with room for a long video: a thumbnail's deadline
    /// would stop a trim of an hour of film.
    public static let workerLimits = WorkerLimits(deadlineSeconds: 1800, memoryBytes: 4 << 30, cpuSeconds: 1800)

    let placement: Placement
    let keepsModificationTime: Bool
    let generator: PreviewGenerator

    public init(placement: Placement, keepsModificationTime: Bool, generator: PreviewGenerator) {
        self.placement = placement
        self.keepsModificationTime = keepsModificationTime
        self.generator = generator
    }

    /// Does `edits` one after the other (each on the last one's result) and puts the result in place.
    public func apply(_ edits: [FileEdit], to path: String) async throws -> Outcome {
        guard !edits.isEmpty else { throw EditError("nothing to do") }
        let before = try FileVersion.of(path)
        let (folder, name) = Self.split(path)
        Self.removeLeftovers(of: name, in: folder)
        var results: [FileEditResult] = []
        var current = path
        var temporaries: [(path: String, lock: Int32)] = []
        var placed: String?
        defer {
            for temporary in temporaries {
                if temporary.path != placed { unlink(temporary.path) }
                close(temporary.lock)
            }
        }
        for edit in edits {
            try Task.checkCancellation()
            let temporary = try Self.temporary(beside: name, in: folder, mode: before.mode)
            temporaries.append(temporary)
            do {
                results.append(try await generator.edit(edit, path: current, output: temporary.path))
            } catch let error as ThumbnailError where Self.isGone(path) {
                // The volume went while the result was written: say that, not the library's errno.
                throw EditError("the volume holding \(TerminalText.escaped(folder)) went away while the edit was written (\(error.reason)); "
                                + "the original was not touched, and what was half written goes with the next edit of this file")
            }
            current = temporary.path
        }
        try Task.checkCancellation()
        guard try FileVersion.of(path) == before else {
            throw EditError("\(TerminalText.escaped(path)) changed while it was being edited: nothing was replaced")
        }
        if keepsModificationTime { before.setModificationTime(on: current) }
        let result = Self.combined(results)
        let editName = edits.map(\.name).joined(separator: "+")
        switch placement {
        case .copy:
            let target = try place(current, besideAs: name, in: folder)
            placed = current
            return Outcome(path: path, output: target, edit: editName, trashedItem: nil, result: result)
        case .replace:
            let can = TrashCan(dataHome: ProcessEnvironment.current.dataHome, mountPoints: VolumeMonitor.currentVolumes().map(\.mountPoint))
            let item: TrashCan.Item
            do { item = try can.trash(path) } catch { throw EditError("cannot put the original in the Trash (\(error)): nothing was replaced") }
            do {
                try FileRename.noReplaceOrLook(current, to: path)
            } catch {
                _ = try? can.restore(item)
                throw EditError("cannot put the edited file in place (\(error.description)): the original is back")
            }
            placed = current
            ThumbnailCache().removeThumbnails(for: path)
            return Outcome(path: path, output: path, edit: editName, trashedItem: item, result: result)
        }
    }

    /// A new empty file beside the original, hidden, with the original's suffix (which tells the
    /// libraries the format) and permissions; locked while this edit lives, so that a later edit
    /// knows it from a leftover.
    private static func temporary(beside name: String, in folder: String, mode: mode_t) throws -> (path: String, lock: Int32) {
        let suffix = Self.suffix(of: name)
        let temporary = try TemporaryFile.create(template: folder + "/" + leftoverPrefix(name) + "XXXXXX" + (suffix.isEmpty ? "" : "." + suffix),
                                                 suffixLength: Int32(suffix.isEmpty ? 0 : suffix.fileSystemBytes.count + 1))
        fchmod(temporary.descriptor, mode)
        flock(temporary.descriptor, LOCK_EX)
        return (temporary.path, temporary.descriptor)
    }

    /// The original cannot be reached any more: its volume is gone, or unmounted under it.
    private static func isGone(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) != 0 && (VolumeGone.matches(errno) || errno == ENOENT)
    }

    /// How an edit's temporaries of `name` begin: hidden, named after the file.
    /// Cut so that a temporary of a 255-byte name is still a name (leftovers are found by this prefix).
    static func leftoverPrefix(_ name: String) -> String { "." + FileSystemBytes.prefix(of: name, bytes: 200) + ".qlbrowse-edit-" }

    /// Temporaries of earlier edits of `name` that nobody holds: left by a volume that went away
    /// in the middle of writing, or by a process killed outright. They go before a new edit.
    static func removeLeftovers(of name: String, in folder: String) {
        let prefix = leftoverPrefix(name)
        for entry in DirectoryEntries.list(folder) where entry.name.hasPrefix(prefix) {
            let path = folder + "/" + entry.name
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
    }

    /// What the passes did, as one result: every note, the trim's window, the last size, the pages turned.
    static func combined(_ results: [FileEditResult]) -> FileEditResult {
        var combined = FileEditResult()
        for result in results {
            combined.notes += result.notes
            combined.start = result.start ?? combined.start
            combined.end = result.end ?? combined.end
            combined.width = result.width ?? combined.width
            combined.height = result.height ?? combined.height
            combined.rect = result.rect ?? combined.rect
            if let pages = result.pages { combined.pages = (combined.pages ?? 0) + pages }
            if let marks = result.marks { combined.marks = (combined.marks ?? 0) + marks }
        }
        return combined
    }

    /// "name (edited).ext", or "name (edited 2).ext" and on when taken.
    private func place(_ temporary: String, besideAs name: String, in folder: String) throws -> String {
        for attempt in 1...1000 {
            let target = folder + "/" + ConflictNames.labelled(name, attempt == 1 ? "edited" : "edited \(attempt)")
            do {
                try FileRename.noReplaceOrLook(temporary, to: target)
                return target
            } catch where error.errno == EEXIST {
                continue
            } catch {
                throw EditError("cannot write \(TerminalText.escaped(target)): \(error.description)")
            }
        }
        throw EditError("every name for the edited copy is taken")
    }

    /// The folder and the name of an absolute path.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (slash == path.startIndex ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// A name's suffix, which the temporary keeps so that libraries choose the same format
    /// ("a.tar.gz" → "gz"; ".profile" has none).
    static func suffix(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}

/// A file's identity and times, to tell whether someone changed it meanwhile.
struct FileVersion: Equatable {
    let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    let mode: mode_t

    static func of(_ path: String) throws -> FileVersion {
        var status = stat()
        guard stat(path, &status) == 0 else { throw EditError("cannot read \(TerminalText.escaped(path)): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw EditError("\(TerminalText.escaped(path)) is not a regular file") }
        return FileVersion(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                         seconds: status.st_mtim.tv_sec, nanoseconds: status.st_mtim.tv_nsec, mode: status.st_mode & 0o7777)
    }

    func setModificationTime(on path: String) {
        let omit = (1 << 30) - 2  // UTIME_OMIT: the access time stays
        var times = [timespec(tv_sec: 0, tv_nsec: omit), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        utimensat(AT_FDCWD, path, &times, 0)
    }
}

/// Why an edit was not saved, in words for the user; the original is untouched.
public struct EditError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
