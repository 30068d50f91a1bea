import FileSystemKit
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

extension LocalPlace {
    /// The trash as this place sees it: the home trash, and a `.Trash-UID` on each other volume.
    var trashCan: TrashCan { TrashCan(dataHome: dataHome, mountPoints: mountPoints()) }

    public func rename(_ path: String, to newPath: String) async throws(FileSystemError) -> PathStamp? {
        try await call(path) { () throws(FileSystemError) -> PathStamp? in
            try FileRename.noReplaceOrLook(path, to: newPath)
            return PathStamp.of(newPath)
        }
    }

    public func stamp(_ path: String) async throws(FileSystemError) -> PathStamp? {
        try await call(path) { () throws(FileSystemError) -> PathStamp? in PathStamp.of(path) }
    }

    public var stampsFiles: Bool { true }

    public func make(_ path: String, folder: Bool) async throws(FileSystemError) -> PathStamp? {
        try await call(path) { () throws(FileSystemError) -> PathStamp? in
            if folder {
                guard mkdir(path, 0o755) == 0 else { throw .system(errno, "cannot make the folder", path: path, call: "mkdir") }
            } else {
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw .system(errno, "cannot make the file", path: path, call: "open") }
                close(fd)
            }
            return PathStamp.of(path)
        }
    }

    public func trash(_ path: String) async throws(FileSystemError) -> TrashCan.Item {
        let can = trashCan
        return try await call(path) { () throws(FileSystemError) -> TrashCan.Item in try can.trash(path) }
    }

    public func restore(_ item: TrashCan.Item) async throws(FileSystemError) -> String {
        let can = trashCan
        return try await call(item.originalPath, deadline: 10) { () throws(FileSystemError) -> String in try can.restore(item) }
    }

    public func perform(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report {
        let can = trashCan
        let place = operation.destination ?? operation.sources.first.map { String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) } ?? "/"
        let volume = mountPoint(of: place)
        // A long copy keeps its deadline as long as it makes progress: each progress report beats.
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<VolumeIO.Outcome<FileOperation.Report>, Never>) in
            io.run(volume: volume, deadline: 30, { heartbeat -> FileOperation.Report in
                operation.run(trash: can, resolve: events.resolve, progress: { progress in
                    heartbeat.beat()
                    events.progress(progress)
                }, moved: events.moved, removed: events.removed)
            }, completion: { continuation.resume(returning: $0) })
        }
        switch outcome {
        case .done(let report): return report
        case .timedOut:
            // The operation goes on if the volume comes back; only nobody waits for it any more.
            throw FileSystemError(code: .notResponding, path: volume, context: "stopped waiting; what was copied is listed when the volume answers again")
        case .refused:
            throw FileSystemError(code: .notResponding, path: volume, context: "nothing was done")
        }
    }
}
