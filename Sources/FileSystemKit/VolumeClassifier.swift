/// Sorts mounts into local disks, removable media, network shares and pseudo filesystems, from
/// what the kernel says (filesystem type, source, the block device's `removable` flag), not from
/// names the user chose.
public enum VolumeClassifier {
    static let pseudoTypes: Set<String> = [
        "proc", "sysfs", "devpts", "devtmpfs", "cgroup", "cgroup2", "mqueue", "debugfs", "tracefs", "securityfs", "pstore",
        "bpf", "autofs", "fusectl", "configfs", "hugetlbfs", "binfmt_misc", "nsfs", "rpc_pipefs", "efivarfs", "ramfs", "selinuxfs",
        "fuse.lxcfs", "fuse.portal", "fuse.snapfuse", "squashfs", "nfsd",
    ]
    static let networkTypes: Set<String> = [
        "cifs", "smb3", "smbfs", "nfs", "nfs4", "9p", "afs", "ceph", "glusterfs", "davfs", "fuse.sshfs", "fuse.davfs2", "fuse.smbnetfs",
        "fuse.rclone", "fuse.s3fs", "fuse.gvfsd-fuse", "fuse.curlftpfs",
    ]
    /// FAT and exFAT: the filesystems of sticks and SD cards (also when mounted through FUSE).
    static let removableTypes: Set<String> = ["vfat", "msdos", "exfat", "fuse.fusefat", "fuse.exfat", "fuse.fuse-exfat"]
    /// Trees of kernel and runtime state; a mount there is plumbing, not a volume (except media).
    static let hiddenTrees = ["/proc", "/sys", "/dev", "/run"]

    /// The kind of `mount`; `isRemovableDevice` answers for its block device (from sysfs).
    public static func kind(of mount: MountTable.Mount, isRemovableDevice: Bool) -> Volume.Kind {
        let type = mount.fsType
        if isHidden(mountPoint: mount.mountPoint, fsType: type) { return .hidden }
        if networkTypes.contains(type) || mount.source.hasPrefix("//") { return .network }
        if removableTypes.contains(type) || isRemovableDevice { return .removable }
        // Other FUSE filesystems are nearly all remote (rclone, s3fs, …); fuseblk is a local disk.
        if type.hasPrefix("fuse.") || type == "fuse" { return .network }
        return .local
    }

    /// Whether a mount is plumbing, not a volume: a pseudo filesystem, or a mount in a tree of
    /// kernel and runtime state (except media and the servers the user connected). It needs only
    /// what mountinfo says (`MountTable.mountPoints(in:)` asks it without the rest).
    static func isHidden(mountPoint: String, fsType type: String) -> Bool {
        if pseudoTypes.contains(type) { return true }
        let underMedia = mountPoint.hasPrefix("/run/media/") || mountPoint.hasPrefix("/media/")
        // Servers the user connected (qlbrowse's and GVfs' FUSE mounts) live in the runtime folder.
        let userServer = mountPoint.hasPrefix("/run/user/") && (networkTypes.contains(type) || type.hasPrefix("fuse."))
        return !underMedia && !userServer && hiddenTrees.contains(where: { mountPoint == $0 || mountPoint.hasPrefix($0 + "/") })
    }

    /// The label to show: the part after the last slash of the source for shares
    /// (`//server/photos` → photos on server), else the mount point's last component.
    public static func label(of mount: MountTable.Mount, kind: Volume.Kind) -> String {
        if mount.mountPoint == "/" { return "root" }
        let last = mount.mountPoint.split(separator: "/").last.map(String.init) ?? mount.mountPoint
        if kind == .network, mount.source.hasPrefix("//") {
            let parts = mount.source.split(separator: "/")
            if parts.count >= 2 { return "\(parts[1]) on \(parts[0])" }
        }
        return last
    }
}
