import FileSystemKit
import SystemKit

/// The permission bits a copy between places keeps: a private file (a key, 0600) stays private
/// on the other host, a 0750 folder stays 0750, as `scp -p` and `rsync -p` keep them.
extension PlaceTransfer {
    /// The bits of a source's `mode` its copy gets: read, write and execute for user, group and
    /// others, and the sticky bit; not set-user-ID nor set-group-ID (the copy belongs to whoever
    /// copied it, so those bits would now run as someone else: `cp` without `-p` drops them too).
    /// The umask is not applied: the copy has its source's mode, not a new file's.
    public static func keptMode(_ mode: UInt32) -> UInt32 { mode & 0o1777 }

    /// `items` with each one's mode from its place (`item(at:)`: a listing does not carry modes),
    /// asked 16 at a time so a remote's round trips overlap.
    func withModes(_ items: [Item]) async throws(FileSystemError) -> [Item] {
        var found = items
        let asked = Array(found.indices.dropFirst())
        for start in stride(from: 0, to: asked.count, by: 16) {
            let group = Array(asked[start..<min(start + 16, asked.count)])
            let modes = await withTaskGroup(of: (Int, Result<UInt32?, FileSystemError>).self) { tasks in
                for index in group {
                    let path = found[index].path
                    tasks.addTask { [source] in
                        do throws(FileSystemError) { return (index, .success(try await source.item(at: path).mode)) } catch { return (index, .failure(error)) }
                    }
                }
                var modes: [(Int, Result<UInt32?, FileSystemError>)] = []
                for await mode in tasks { modes.append(mode) }
                return modes
            }
            for (index, mode) in modes { found[index].mode = try mode.get().map(Self.keptMode) }
        }
        return found
    }

    /// Each folder of `items` (copied under `temporary`) given its mode, the deepest first and
    /// after everything is in: a read-only folder is filled before it becomes read-only.
    func giveFolderModes(_ items: [Item], under temporary: String) async throws(FileSystemError) {
        let top = items[0].relative
        for item in items.reversed() where item.isDirectory {
            guard let mode = item.mode else { continue }
            let at = item.relative == top ? temporary : temporary + item.relative.dropFirst(top.count)
            try await destination.setMode(at, to: mode)
        }
    }
}
