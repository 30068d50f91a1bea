import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The types `qlbrowse dbus` answers GetSupported with, remembered from its last run
/// (`$XDG_CACHE_HOME/qlbrowse/dbus-types`), so that a desktop's first call does not wait for a
/// worker to start and list them (`--list-types`: 40–130 ms on a busy machine, all of it before
/// the client queues its first screen). tumbler keeps its GStreamer registry the same way.
///
/// The memo is the worker's own list, kept under the worker's identity (path, size, change time):
/// a new qlbrowse lists again before answering. A `.thumbnailer` installed or removed since is
/// caught by the list made again a few seconds after the answer, and answered from the next start.
struct SupportedTypesMemo: Sendable {
    let folder: String
    let path: String
    let worker: String

    init(worker: String = WorkerPool.defaultExecutable(), cacheHome: String = ProcessEnvironment.current.cacheHome) {
        self.worker = worker
        folder = cacheHome + "/qlbrowse"
        path = folder + "/dbus-types"
    }

    /// The worker's identity as the memo's first line; nil when the worker is not there.
    private var key: String? {
        var status = stat()
        guard stat(worker, &status) == 0 else { return nil }
        return "\(worker)\t\(status.st_size)\t\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)\t\(status.st_ino)"
    }

    /// The remembered types, when the memo was written for this worker.
    func read() -> [String]? {
        guard let key, let bytes = FileDescriptorReader.readFile(path, upTo: 1 << 20) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, lines[0] == key, lines.last == "" else { return nil }
        return Array(lines[1..<(lines.count - 1)])
    }

    func write(_ types: [String]) {
        guard let key else { return }
        FolderMaker.make(folder)
        try? AtomicFileWriter.write(Array(([key] + types).map { $0 + "\n" }.joined().utf8), to: path, permissions: 0o600)
    }

    /// The remembered types at once (the list made again in `refreshAfter` seconds, on a thread
    /// of its own, and kept if it changed), else the list made now and kept.
    func types(refreshAfter seconds: UInt32 = 5, list: @escaping @Sendable () -> [String]) -> [String] {
        guard let known = read() else {
            let fresh = list()
            if !fresh.isEmpty { write(fresh) }
            return fresh
        }
        let memo = self
        _ = DetachedThread.start(stackSize: 256 * 1024) {
            sleep(seconds)
            let fresh = list()
            if !fresh.isEmpty && fresh != known { memo.write(fresh) }
        }
        return known
    }
}
