import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Whether a path can be used where the caller stands, without a thread to abandon: every
/// volume on its way is a local disk or memory, and no link on it leads elsewhere. A `stat` on a
/// share that stopped answering sleeps in the kernel for good; one on a local disk does not. A
/// short call (one cached thumbnail) runs on its own thread when this holds, and starts the
/// threads that guard against a hung volume only when it does not (issue #27).
public enum LocalDiskPath {
    /// Filesystems on a local disk or in memory: no server or FUSE daemon answers their calls.
    static let localTypes: Set<String> = [
        "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "zfs", "bcachefs", "jfs", "reiserfs", "nilfs2",
        "tmpfs", "ramfs", "overlay", "vfat", "msdos", "exfat", "ntfs3", "iso9660", "udf", "squashfs",
    ]

    /// Block devices whose blocks come over a network or from a file that may: a loop device
    /// (its image may sit on a share), network block devices, Ceph's.
    static let networkBackedSources = ["/dev/loop", "/dev/nbd", "/dev/rbd"]

    /// Whether calls on `mount` are answered by the local kernel alone.
    static func isLocal(_ mount: MountTable.Brief) -> Bool {
        localTypes.contains(mount.fsType) && !networkBackedSources.contains { mount.source.hasPrefix($0) }
    }

    /// True when `path` (absolute or relative to the working folder) lies, with every folder above
    /// it, on local mounts of `mounts`; a symbolic link on the way is followed (read here, which is
    /// safe on a local disk) and its target checked the same way. With `beneath`, no mount inside
    /// the path's folder (where it leads) may be other than local either: for a folder whose
    /// contents are read. False when anything is unsure: a `..` (whose meaning depends on links),
    /// a component that cannot be looked at, a chain of links too long.
    public static func cannotHang(_ path: String, mounts: [MountTable.Brief], beneath: Bool = false) -> Bool {
        guard mounts.contains(where: { $0.mountPoint == "/" }), !path.isEmpty, let bytes = absoluteBytes(path),
              let resolved = resolved(bytes, mounts: mounts, linksLeft: 16) else { return false }
        guard beneath else { return true }
        return !mounts.contains { mount in
            let point = mount.mountPoint.fileSystemBytes
            return point != resolved && MountTable.isAtOrBelow(point, resolved) && !isLocal(mount)
        }
    }

    /// The path the links on `bytes` lead to, when every mount on the way is local; nil otherwise.
    private static func resolved(_ bytes: [UInt8], mounts: [MountTable.Brief], linksLeft: Int) -> [UInt8]? {
        // Every mount whose point is the path or above it: the path's own and those it passes through.
        if mounts.contains(where: { !isLocal($0) && MountTable.isAtOrBelow(bytes, $0.mountPoint.fileSystemBytes) }) { return nil }
        // The mounts passed through are local, so their components can be looked at here.
        let components = bytes.split(separator: UInt8(ascii: "/"))
        var prefix: [UInt8] = []
        for (index, component) in components.enumerated() {
            let parent = prefix
            prefix += [UInt8(ascii: "/")] + component
            var status = stat()
            guard lstat(String(fileSystemBytes: prefix), &status) == 0 else { return nil }
            guard (status.st_mode & S_IFMT) == S_IFLNK else { continue }
            guard linksLeft > 0, var target = readLink(String(fileSystemBytes: prefix))?.fileSystemBytes, !target.isEmpty else { return nil }
            if target.first != UInt8(ascii: "/") { target = parent + [UInt8(ascii: "/")] + target }
            for rest in components[(index + 1)...] { target += [UInt8(ascii: "/")] + rest }
            guard let next = absoluteBytes(String(fileSystemBytes: target)) else { return nil }
            return resolved(next, mounts: mounts, linksLeft: linksLeft - 1)
        }
        return bytes
    }

    /// `path` as an absolute path's bytes without empty or `.` components; nil when it has a `..`
    /// or the working folder is unknown.
    static func absoluteBytes(_ path: String) -> [UInt8]? {
        var full = path.fileSystemBytes
        if full.first != UInt8(ascii: "/") {
            guard let folder = workingFolderBytes() else { return nil }
            full = folder + [UInt8(ascii: "/")] + full
        }
        var parts: [ArraySlice<UInt8>] = []
        for part in full.split(separator: UInt8(ascii: "/")) where part != [UInt8(ascii: ".")] {
            if part == [UInt8(ascii: "."), UInt8(ascii: ".")] { return nil }
            parts.append(part)
        }
        let joined = parts.reduce(into: [UInt8]()) { $0 += [UInt8(ascii: "/")] + $1 }
        return joined.isEmpty ? [UInt8(ascii: "/")] : joined
    }

    /// This process's mount table, for `cannotHang` (empty when it cannot be read: nothing is vouched for).
    public static func currentMounts(mountinfoPath: String = "/proc/self/mountinfo") -> [MountTable.Brief] {
        FileDescriptorReader.readFile(mountinfoPath, upTo: 4 << 20).map { MountTable.briefs(in: $0) } ?? []
    }
}
