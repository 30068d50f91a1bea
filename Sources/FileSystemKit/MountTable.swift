import SystemKit
/// The kernel's table of mounted filesystems (`/proc/self/mountinfo`), parsed.
public enum MountTable {
    /// One line of mountinfo: where a filesystem is mounted, what it is, where it comes from.
    public struct Mount: Sendable, Equatable {
        public let id: Int
        public let parentID: Int
        /// "major:minor" of the device (for FUSE, the connection number is the minor).
        public let device: String
        public let mountPoint: String
        public let options: [String]
        public let fsType: String
        public let source: String
        public let superOptions: [String]

        public var isReadOnly: Bool { options.contains("ro") || superOptions.contains("ro") }

        public init(id: Int, parentID: Int, device: String, mountPoint: String, options: [String], fsType: String, source: String, superOptions: [String]) {
            self.id = id
            self.parentID = parentID
            self.device = device
            self.mountPoint = mountPoint
            self.options = options
            self.fsType = fsType
            self.source = source
            self.superOptions = superOptions
        }
    }

    /// The mounts listed in mountinfo `text`; malformed lines are skipped.
    public static func parse(_ text: String) -> [Mount] { parse(bytes: text.fileSystemBytes) }

    /// The mounts listed in mountinfo's bytes; malformed lines are skipped. Read as bytes, not
    /// characters: every short call (one thumbnail, one preview) reads the table once, and
    /// splitting it as text cost more than the rest of such a call's own work.
    public static func parse(bytes: [UInt8]) -> [Mount] {
        bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            func text(_ index: Int) -> String { String(fileSystemBytes: Array(fields[index])) }
            func list(_ index: Int) -> [String] { fields[index].split(separator: UInt8(ascii: ",")).map { String(fileSystemBytes: Array($0)) } }
            // id parent major:minor root mountpoint options [optional…] - fstype source superoptions
            guard fields.count >= 10, let id = Int(text(0)), let parent = Int(text(1)),
                  let separator = fields[6...].firstIndex(where: { $0.elementsEqual([UInt8(ascii: "-")]) }), separator + 2 < fields.count else { return nil }
            return Mount(id: id, parentID: parent, device: text(2), mountPoint: unescape(fields[4]), options: list(5), fsType: text(separator + 1),
                         source: unescape(fields[separator + 2]), superOptions: separator + 3 < fields.count ? list(separator + 3) : [])
        }
    }

    /// The mount points of the volumes (the later of two mounts on one point; pseudo filesystems
    /// and the plumbing under /proc, /sys, /dev and /run left out, as in the volumes view), read
    /// from mountinfo `bytes` alone. What a short call needs (its path's volume, the mount points
    /// inside a folder), without `VolumeMonitor.currentVolumes`' sysfs reads for removable drives.
    /// Reads only the two fields it needs of each line (every short call does this once).
    /// A table of up to `linearLimit` lines finds its repeated mount points by a linear search: a
    /// `Set` of byte slices costs more on its first use in a process (its generic type is made at
    /// run time, scanning every protocol conformance of the binary) than comparing a few dozen.
    public static func mountPoints(in bytes: [UInt8]) -> [String] {
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        var seen = SeenMountPoints(hashed: lines.count > linearLimit)
        var points: [String] = []
        for line in lines.reversed() {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            // id parent major:minor root mountpoint options [optional…] - fstype source superoptions
            guard fields.count >= 10, let separator = fields[6...].firstIndex(where: { $0.elementsEqual([UInt8(ascii: "-")]) }),
                  separator + 2 < fields.count, seen.insert(fields[4]) else { continue }
            let point = unescape(fields[4])
            guard !VolumeClassifier.isHidden(mountPoint: point, fsType: String(decoding: fields[separator + 1], as: UTF8.self)) else { continue }
            points.append(point)
        }
        return points
    }

    /// What `LocalDiskPath` needs of a mount: where, what type, from which source.
    public struct Brief: Sendable, Equatable {
        public let mountPoint: String
        public let fsType: String
        public let source: String

        public init(mountPoint: String, fsType: String, source: String = "") {
            self.mountPoint = mountPoint
            self.fsType = fsType
            self.source = source
        }
    }

    /// Each mount's point, filesystem type and source, read from mountinfo `bytes` alone (three
    /// fields of each line, as `mountPoints(in:)` reads two), every mount kept.
    public static func briefs(in bytes: [UInt8]) -> [Brief] {
        var mounts: [Brief] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count >= 10, let separator = fields[6...].firstIndex(where: { $0.elementsEqual([UInt8(ascii: "-")]) }),
                  separator + 2 < fields.count else { continue }
            mounts.append(Brief(mountPoint: unescape(fields[4]), fsType: String(decoding: fields[separator + 1], as: UTF8.self),
                                source: unescape(fields[separator + 2])))
        }
        return mounts
    }

    static let linearLimit = 64

    /// The raw mount point fields met so far: a list searched linearly, or a set for big tables.
    private struct SeenMountPoints {
        var list: [ArraySlice<UInt8>] = []
        var set: Set<ArraySlice<UInt8>>?

        init(hashed: Bool) { set = hashed ? [] : nil }

        /// True when `field` was not met before (and is now).
        mutating func insert(_ field: ArraySlice<UInt8>) -> Bool {
            if set != nil { return set!.insert(field).inserted }
            guard !list.contains(where: { $0.elementsEqual(field) }) else { return false }
            list.append(field)
            return true
        }
    }

    /// `mountPoints(in:)` of this process's mount table, read once.
    public static func currentMountPoints(mountinfoPath: String = "/proc/self/mountinfo") -> [String] {
        FileDescriptorReader.readFile(mountinfoPath, upTo: 4 << 20).map { mountPoints(in: $0) } ?? []
    }

    /// The mount point `path` (absolute, normalised) lies on: the longest of `mountPoints` that is
    /// the path or a folder above it, compared as bytes ("/" when none is).
    public static func mountPoint(containing path: String, in mountPoints: [String]) -> String {
        let bytes = path.fileSystemBytes
        var best: [UInt8] = [UInt8(ascii: "/")]
        for point in mountPoints {
            let candidate = point.fileSystemBytes
            guard candidate.count > best.count, isAtOrBelow(bytes, candidate) else { continue }
            best = candidate
        }
        return String(fileSystemBytes: best)
    }

    /// Whether the absolute path `path` is `folder` or lies below it, compared as bytes
    /// (`/a/bc` is not below `/a/b`; everything is below `/`).
    public static func isAtOrBelow(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        if folder == [UInt8(ascii: "/")] { return true }
        return path.starts(with: folder) && (path.count == folder.count || path[folder.count] == UInt8(ascii: "/"))
    }

    /// mountinfo writes space, tab, newline and backslash in paths as octal escapes (`\040`).
    static func unescape(_ field: String) -> String { unescape(field.fileSystemBytes[...]) }

    static func unescape(_ field: ArraySlice<UInt8>) -> String {
        guard field.contains(UInt8(ascii: "\\")) else { return String(fileSystemBytes: Array(field)) }
        let utf8 = Array(field)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count,
               let value = UInt8(String(decoding: utf8[(index + 1)...(index + 3)], as: UTF8.self), radix: 8) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(fileSystemBytes: bytes)
    }
}
