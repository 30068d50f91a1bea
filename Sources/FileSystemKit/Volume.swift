/// A mounted filesystem as the user thinks of it: a disk, a USB stick, a network share.
public struct Volume: Sendable, Equatable, Hashable {
    /// How a volume is reached, which says how it may fail.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        /// A fixed disk (or tmpfs, overlay…): fast, does not go away.
        case local
        /// A USB stick or SD card: may be pulled out.
        case removable
        /// SMB, NFS, sshfs, other FUSE remotes: may be slow, hang, or vanish with the network.
        case network
        /// Kernel pseudo filesystems (proc, sysfs, cgroup…): not shown.
        case hidden

        public static func < (a: Kind, b: Kind) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    public let mountPoint: String
    public let fsType: String
    public let source: String
    public let device: String
    public let kind: Kind
    public let isReadOnly: Bool
    /// What to call it: the filesystem label when known, else the share or the mount point's name.
    public let label: String

    public init(mountPoint: String, fsType: String, source: String, device: String, kind: Kind, isReadOnly: Bool, label: String) {
        self.mountPoint = mountPoint
        self.fsType = fsType
        self.source = source
        self.device = device
        self.kind = kind
        self.isReadOnly = isReadOnly
        self.label = label
    }

    /// Whether `path` (absolute, normalised) lies on this volume's mount point or below it.
    public func contains(_ path: String) -> Bool {
        mountPoint == "/" || path == mountPoint || path.hasPrefix(mountPoint + "/")
    }

    /// The volume `path` lies on: the one with the longest mount point containing it.
    public static func containing(_ path: String, in volumes: [Volume]) -> Volume? {
        volumes.filter { $0.contains(path) }.max { $0.mountPoint.count < $1.mountPoint.count }
    }
}
