import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// What a listing shows of one entry: read with `fstatat` in the folder's descriptor, a symbolic
/// link described by its target when there is one (a broken link by itself).
struct EntryAttributes: Sendable {
    var found = false
    var isDirectory = false
    var isSymbolicLink = false
    var size = 0
    var modified = 0

    /// Reads the entry `name` (NUL-terminated) of the folder open as `folder`.
    static func read(_ name: UnsafePointer<CChar>, in folder: Int32) -> EntryAttributes {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return EntryAttributes() }
        let isLink = (info.st_mode & S_IFMT) == S_IFLNK
        if isLink {
            var target = stat()
            if fstatat(folder, name, &target, 0) == 0 { info = target }
        }
        return EntryAttributes(found: true, isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, isSymbolicLink: isLink,
                               size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec))
    }

    /// Reads many entries of one folder at once on `lanes` threads, in the order given: on a
    /// network share each stat is a round trip (5 ms and more), and eight in flight list a folder
    /// about eight times sooner. Each name is NUL-terminated.
    static func read(_ names: [[UInt8]], in folder: Int32, lanes: [DispatchQueue]) -> [EntryAttributes] {
        let results = Mutex([EntryAttributes](repeating: EntryAttributes(), count: names.count))
        let next = Atomic(0)
        let group = DispatchGroup()
        for lane in lanes.prefix(names.count) {
            lane.async(group: group) {
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < names.count else { return }
                    let attributes = names[index].withUnsafeBufferPointer { bytes in
                        bytes.withMemoryRebound(to: CChar.self) { read($0.baseAddress!, in: folder) }
                    }
                    results.withLock { $0[index] = attributes }
                }
            }
        }
        group.wait()
        return results.withLock { $0 }
    }
}
