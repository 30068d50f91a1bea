import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lists a folder off the UI thread, in batches, so the first screen of a huge folder paints
/// before the listing ends. Each listing can be cancelled; a cancelled one reports nothing more.
public final class DirectoryLister: Sendable {
    /// One listed item, as plain data.
    public struct Item: Sendable {
        public let nameBytes: [UInt8]
        public let isDirectory: Bool
        public let isSymbolicLink: Bool
        public let size: Int
        public let modified: Int
    }

    /// A running listing.
    public final class Listing: Sendable {
        fileprivate let cancelled = Atomic<Bool>(false)
        public func cancel() { cancelled.store(true, ordering: .relaxed) }
        public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    }

    private let queue = DispatchQueue(label: "qlbrowse.listing", attributes: .concurrent)
    /// Items per batch after the first (the first batch is small so the screen fills at once).
    private let batchSize: Int

    public init(batchSize: Int = 25_000) {
        self.batchSize = batchSize
    }

    /// Lists `folder`; `deliver` gets batches, the last with `complete: true`, or a failure reason.
    public func list(_ folder: String, deliver: @escaping @Sendable (_ items: [Item], _ complete: Bool, _ failure: String?) -> Void) -> Listing {
        let listing = Listing()
        let batchSize = self.batchSize
        queue.async {
            guard let directory = opendir(folder) else {
                deliver([], true, "cannot open \(TerminalTextShim.escape(folder)): \(String(cString: strerror(errno)))")
                return
            }
            defer { closedir(directory) }
            let fd = dirfd(directory)
            var batch: [Item] = []
            var limit = 200
            while true {
                if listing.isCancelled { return }
                errno = 0
                guard let entry = readdir(directory) else {
                    let code = errno
                    deliver(batch, true, code == 0 ? nil : "reading \(TerminalTextShim.escape(folder)) failed: \(String(cString: strerror(code)))")
                    return
                }
                let nameBytes: [UInt8] = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: UInt8.self, capacity: 256) { Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)))) }
                }
                if nameBytes == [46] || nameBytes == [46, 46] { continue }
                var info = stat()
                let found = nameBytes.withUnsafeBufferPointer { buffer -> Bool in
                    var name = Array(buffer) + [0]
                    return name.withUnsafeMutableBufferPointer { fstatat(fd, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &info, AT_SYMLINK_NOFOLLOW) } == 0
                }
                var isLink = false
                if found && (info.st_mode & S_IFMT) == S_IFLNK {
                    isLink = true
                    var target = stat()
                    let ok = nameBytes.withUnsafeBufferPointer { buffer -> Bool in
                        var name = Array(buffer) + [0]
                        return name.withUnsafeMutableBufferPointer { fstatat(fd, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &target, 0) } == 0
                    }
                    if ok { info = target }
                }
                batch.append(Item(nameBytes: nameBytes, isDirectory: found && (info.st_mode & S_IFMT) == S_IFDIR, isSymbolicLink: isLink,
                                  size: found ? Int(info.st_size) : 0, modified: found ? Int(info.st_mtim.tv_sec) : 0))
                if batch.count >= limit {
                    deliver(batch, false, nil)
                    batch = []
                    limit = batchSize
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
