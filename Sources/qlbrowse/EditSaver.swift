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
struct EditSaver {
    enum Placement { case replace, copy }

    /// What became of the files.
    struct Outcome: Encodable {
        let path: String
        let output: String
        let edit: String
        let trashed: String?
        let result: FileEditResult
    }

    let placement: Placement
    let keepsModificationTime: Bool
    let generator: PreviewGenerator

    func apply(_ edit: FileEdit, to path: String) async throws -> Outcome {
        let before = try FileVersion.of(path)
        let (folder, name) = Self.split(path)
        let suffix = Self.suffix(of: name)
        let temporary = try TemporaryFile.create(template: folder + "/." + name + ".qlbrowse-edit-XXXXXX" + (suffix.isEmpty ? "" : "." + suffix),
                                                 suffixLength: Int32(suffix.isEmpty ? 0 : suffix.utf8.count + 1))
        fchmod(temporary.descriptor, before.mode)
        close(temporary.descriptor)
        var placed = false
        defer { if !placed { unlink(temporary.path) } }
        let result = try await generator.edit(edit, path: path, output: temporary.path)
        guard try FileVersion.of(path) == before else {
            throw EditError("\(TerminalText.escaped(path)) changed while it was being edited: nothing was replaced")
        }
        if keepsModificationTime { before.setModificationTime(on: temporary.path) }
        switch placement {
        case .copy:
            let target = try place(temporary.path, besideAs: name, in: folder)
            placed = true
            return Outcome(path: path, output: target, edit: edit.name, trashed: nil, result: result)
        case .replace:
            let can = TrashCan(dataHome: ProcessEnvironment.current.dataHome, mountPoints: VolumeMonitor.currentVolumes().map(\.mountPoint))
            let item: TrashCan.Item
            do { item = try can.trash(path) } catch { throw EditError("cannot put the original in the Trash (\(error)): nothing was replaced") }
            do {
                try FileRename.noReplaceOrLook(temporary.path, to: path)
            } catch {
                _ = try? can.restore(item)
                throw EditError("cannot put the edited file in place (\(error.description)): the original is back")
            }
            placed = true
            ThumbnailCache().removeThumbnails(for: path)
            return Outcome(path: path, output: path, edit: edit.name, trashed: item.trashedPath, result: result)
        }
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

struct EditError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
