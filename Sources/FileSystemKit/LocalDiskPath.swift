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

    /// True when `path` (absolute or relative to the working folder) lies, with every folder above
    /// it, on mounts of local types in `mounts`; a symbolic link on the way is followed (read here,
    /// which is safe on a local disk) and its target checked the same way. False when anything is
    /// unsure: a `..` (whose meaning depends on links), a component that cannot be looked at, a
    /// chain of links too long.
    public static func cannotHang(_ path: String, mounts: [(mountPoint: String, fsType: String)]) -> Bool {
        guard mounts.contains(where: { $0.mountPoint == "/" }), !path.isEmpty, let bytes = absoluteBytes(path) else { return false }
        return cannotHang(bytes, mounts: mounts, linksLeft: 16)
    }

    private static func cannotHang(_ bytes: [UInt8], mounts: [(mountPoint: String, fsType: String)], linksLeft: Int) -> Bool {
        // Every mount whose point is the path or above it: the path's own and those it passes through.
        for mount in mounts {
            let point = mount.mountPoint.fileSystemBytes
            let above = point == [UInt8(ascii: "/")]
                || (bytes.starts(with: point) && (bytes.count == point.count || bytes[point.count] == UInt8(ascii: "/")))
            if above && !localTypes.contains(mount.fsType) { return false }
        }
        // The mounts passed through are local, so their components can be looked at here.
        let components = bytes.split(separator: UInt8(ascii: "/"))
        var prefix: [UInt8] = []
        for (index, component) in components.enumerated() {
            let parent = prefix
            prefix += [UInt8(ascii: "/")] + component
            var status = stat()
            guard lstat(String(fileSystemBytes: prefix), &status) == 0 else { return false }
            guard (status.st_mode & S_IFMT) == S_IFLNK else { continue }
            guard linksLeft > 0, var target = readLink(String(fileSystemBytes: prefix))?.fileSystemBytes, !target.isEmpty else { return false }
            if target.first != UInt8(ascii: "/") { target = parent + [UInt8(ascii: "/")] + target }
            for rest in components[(index + 1)...] { target += [UInt8(ascii: "/")] + rest }
            guard let resolved = absoluteBytes(String(fileSystemBytes: target)) else { return false }
            return cannotHang(resolved, mounts: mounts, linksLeft: linksLeft - 1)
        }
        return true
    }

    /// `path` as an absolute path's bytes without empty or `.` components; nil when it has a `..`
    /// or the working folder is unknown.
    static func absoluteBytes(_ path: String) -> [UInt8]? {
        var full = path.fileSystemBytes
        if full.first != UInt8(ascii: "/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&buffer, buffer.count) != nil else { return nil }
            full = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) } + [UInt8(ascii: "/")] + full
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
    public static func currentMounts(mountinfoPath: String = "/proc/self/mountinfo") -> [(mountPoint: String, fsType: String)] {
        FileDescriptorReader.readFile(mountinfoPath, upTo: 4 << 20).map { MountTable.pointsAndTypes(in: $0) } ?? []
    }
}
