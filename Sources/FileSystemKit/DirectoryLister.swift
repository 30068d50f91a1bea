import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lists a folder off the UI thread, in batches, so the first screen of a huge folder paints
/// before the listing ends. Each listing can be cancelled; a cancelled one reports nothing more.
public final class DirectoryLister: Sendable {
    /// A running listing.
    public final class Listing: Sendable {
        fileprivate let cancelled = Atomic<Bool>(false)
        public func cancel() { cancelled.store(true, ordering: .relaxed) }
        public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    }

    private let queue = DispatchQueue(label: "qlbrowse.listing", attributes: .concurrent)
    /// Items in the second batch (the first is small so the screen fills at once; later ones double).
    private let batchSize: Int

    public init(batchSize: Int = 25_000) {
        self.batchSize = batchSize
    }

    /// Lists `folder`; `deliver` gets packed batches, the last with `complete: true`, or a failure reason.
    public func list(_ folder: String, deliver: @escaping @Sendable (_ batch: EntryStore, _ complete: Bool, _ failure: String?) -> Void) -> Listing {
        let listing = Listing()
        let batchSize = self.batchSize
        queue.async {
            guard let directory = opendir(folder) else {
                deliver(EntryStore(), true, "cannot open \(TerminalTextShim.escape(folder)): \(String(cString: strerror(errno)))")
                return
            }
            defer { closedir(directory) }
            let fd = dirfd(directory)
            var limit = 200
            var batch = EntryBatch(expectedEntries: limit)
            var kinds = KindGuesser()
            while true {
                if listing.isCancelled { return }
                errno = 0
                guard let entry = readdir(directory) else {
                    let code = errno
                    deliver(EntryStore(batch), true, code == 0 ? nil : "reading \(TerminalTextShim.escape(folder)) failed: \(String(cString: strerror(code)))")
                    return
                }
                withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: 256) { cName in
                        let name = UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: strlen(cName))
                        if name.count == 1 && name[0] == 46 || name.count == 2 && name[0] == 46 && name[1] == 46 { return }
                        var info = stat()
                        let found = fstatat(fd, cName, &info, AT_SYMLINK_NOFOLLOW) == 0
                        let isLink = found && (info.st_mode & S_IFMT) == S_IFLNK
                        if isLink {
                            var target = stat()
                            if fstatat(fd, cName, &target, 0) == 0 { info = target }
                        }
                        let isDirectory = found && (info.st_mode & S_IFMT) == S_IFDIR
                        batch.append(name: name, isDirectory: isDirectory, isSymbolicLink: isLink, size: found ? Int(info.st_size) : 0,
                                     modified: found ? Int(info.st_mtim.tv_sec) : 0, kind: kinds.kind(of: name, isDirectory: isDirectory))
                    }
                }
                if batch.count >= limit {
                    deliver(EntryStore(batch), false, nil)
                    // Batches grow (200, then 25,000, 50,000, …) so that even huge folders make few chunks.
                    limit = limit == 200 ? batchSize : min(limit * 2, EntryStore.chunkCapacity)
                    batch = EntryBatch(expectedEntries: limit)
                }
            }
        }
        return listing
    }
}

/// Escapes a path for a message (the UI escapes again; this keeps raw bytes out of any log).
enum TerminalTextShim {
    static func escape(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
