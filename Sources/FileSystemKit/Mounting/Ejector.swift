import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Ejects a drive or disconnects a server: refuses while anything holds files there (the
/// browser's own work, named by the browser; other processes, found in /proc), else flushes and
/// unmounts (a FUSE mount with fusermount3, which needs no root; others through the mounter),
/// and forgets a server connection's private folder.
public enum Ejector {
    /// The volume `word` names among those mounted: its mount point, label, source device, or
    /// a server address qlbrowse connected.
    public static func volume(named word: String, environment: ProcessEnvironment = .current) -> Volume? {
        let volumes = VolumeMonitor.currentVolumes().filter { $0.mountPoint != "/" }
        let trimmed = word.count > 1 && word.hasSuffix("/") ? String(word.dropLast()) : word
        if let volume = volumes.first(where: { $0.mountPoint == trimmed || $0.source == trimmed || $0.label == trimmed }) { return volume }
        let connection = ConnectionBook(environment: environment).connection(named: word)
        if let connection, let volume = volumes.first(where: { $0.mountPoint == connection.mountPoint }) { return volume }
        // A GVfs mount is a folder in gvfsd-fuse's mount: the volume is that folder.
        let folder = connection?.mountPoint ?? trimmed
        guard GVfs.isMountFolder(folder, environment: environment), access(folder, F_OK) == 0 else { return nil }
        return Volume(mountPoint: folder, fsType: "fuse.gvfsd-fuse", source: "gvfsd-fuse", device: "", kind: .network, isReadOnly: false,
                      label: connection?.address.label ?? String(folder.split(separator: "/").last ?? ""))
    }

    /// "STICK is in use and was not ejected: a copy of 3 files; bash (pid 4121) has its folder open".
    public static func busySentence(_ volume: Volume, holds: [String]) -> String {
        "\(volume.label) is in use and was not ejected: " + holds.joined(separator: "; ")
    }

    /// Ejects `volume` unless `ownHolds` (what the browser itself does there, in words) or
    /// another process (any but `excluding`) holds files there; returns what to tell the user.
    public static func eject(_ volume: Volume, ownHolds: [String] = [], excluding: Set<Int32> = [getpid()], mounter: any Mounter,
                             environment: ProcessEnvironment = .current) throws(MountFailure) -> String {
        guard volume.mountPoint != "/" else { throw MountFailure(.other, "the root file system is not ejected") }
        let holds = ownHolds + FileHolder.holders(under: volume.mountPoint, excluding: excluding).map(\.sentence)
        guard holds.isEmpty else { throw MountFailure(.busy, busySentence(volume, holds: holds)) }
        let book = ConnectionBook(environment: environment)
        let isConnection = book.connections().contains { $0.mountPoint == volume.mountPoint }
        let said: String
        if let root = GVfs.root(environment: environment), volume.mountPoint == root || GVfs.isMountFolder(volume.mountPoint, environment: environment) {
            said = try disconnectGVfs(volume, root: root, book: book, excluding: excluding)
        } else if volume.fsType.hasPrefix("fuse") {
            _ = CommandRun.run(["sync", "-f", volume.mountPoint], seconds: 30)
            let run = CommandRun.run([ProgramSearch.executable("fusermount3") != nil ? "fusermount3" : "fusermount", "-u", volume.mountPoint], seconds: 30)
            guard run.succeeded else { throw failure(volume, run: run, excluding: excluding) }
            if volume.mountPoint.hasPrefix("/media/") { _ = rmdir(volume.mountPoint) }
            said = isConnection ? "disconnected from \(volume.label)" : "\(volume.label) can be removed safely"
        } else {
            do throws(MountFailure) {
                said = try mounter.unmount(volume)
            } catch {
                if error.message.contains("busy") { throw failure(volume, run: nil, excluding: excluding) }
                throw error
            }
        }
        if isConnection { book.forget(mountPoint: volume.mountPoint) }
        return said
    }

    /// GVfs' mounts are undone with `gio mount -u` (never by unmounting gvfsd-fuse, which
    /// would take every GVfs mount of the session away): the one folder, or for gvfsd-fuse's
    /// whole mount (its row in the volumes view) the servers qlbrowse connected through it.
    private static func disconnectGVfs(_ volume: Volume, root: String, book: ConnectionBook, excluding: Set<Int32>) throws(MountFailure) -> String {
        let ours = book.connections().filter { GVfs.isMountFolder($0.mountPoint, environment: book.environment) && book.isMounted($0.mountPoint) }
        let targets = volume.mountPoint == root ? ours.map(\.mountPoint) : [volume.mountPoint]
        guard !targets.isEmpty else {
            throw MountFailure(.other, "GVfs' folder holds servers qlbrowse did not connect: disconnect them where they were connected, or with gio mount -u")
        }
        var names: [String] = []
        for target in targets {
            let connection = ours.first { $0.mountPoint == target }
            let run = CommandRun.run(GVfsConnector.unmountArguments(connection?.address.url ?? target), seconds: 30)
            guard run.succeeded else {
                let holders = FileHolder.holders(under: target, excluding: excluding).map(\.sentence)
                if !holders.isEmpty { throw MountFailure(.busy, busySentence(volume, holds: holders)) }
                throw MountFailure(.other, "\(connection?.address.label ?? volume.label) could not be disconnected: \(run.said)")
            }
            book.forget(mountPoint: target)
            names.append(connection?.address.label ?? String(target.split(separator: "/").last ?? ""))
        }
        return "disconnected from " + names.joined(separator: ", ")
    }

    /// The unmount said "busy" though nothing was seen a moment before: look again and name them.
    private static func failure(_ volume: Volume, run: CommandRun?, excluding: Set<Int32>) -> MountFailure {
        let holders = FileHolder.holders(under: volume.mountPoint, excluding: excluding).map(\.sentence)
        if !holders.isEmpty { return MountFailure(.busy, busySentence(volume, holds: holders)) }
        return MountFailure(.other, "\(volume.label) could not be unmounted: \(run?.said ?? "busy")")
    }
}
