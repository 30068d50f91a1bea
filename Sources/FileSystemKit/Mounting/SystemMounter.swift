import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Mounts as root with mount(8) under `/media/USER/LABEL`, as udisks2 would: FAT, exFAT and
/// NTFS (which keep no owners) with the user's uid and gid and a private umask, every file system
/// `nosuid,nodev`. When the kernel lacks the file system (a container's kernel without vfat) and
/// a FUSE driver for it is installed (fusefat, exfat-fuse, ntfs-3g), that mounts it instead.
public struct SystemMounter: Mounter {
    public let user: MountUser
    /// Where mount points are made: `/media/USER`.
    public let mediaRoot: String

    public init(user: MountUser, mediaRoot: String? = nil) {
        self.user = user
        self.mediaRoot = mediaRoot ?? "/media/" + user.name
    }

    public var name: String { "mount(8)" }

    /// The options for `fsType`: ownership for the file systems without owners.
    public static func options(for fsType: String, user: MountUser) -> [String] {
        let owner = ["uid=\(user.uid)", "gid=\(user.gid)"]
        switch fsType {
        case "vfat", "msdos": return ["nosuid", "nodev"] + owner + ["umask=0077", "shortname=mixed", "utf8", "flush", "errors=remount-ro"]
        case "exfat": return ["nosuid", "nodev"] + owner + ["umask=0077", "iocharset=utf8", "errors=remount-ro"]
        case "ntfs", "ntfs3": return ["nosuid", "nodev"] + owner + ["umask=0077", "windows_names"]
        default: return ["nosuid", "nodev"]
        }
    }

    /// FUSE drivers by file system, tried when the kernel does not know the file system.
    static let fuseDrivers: [String: String] = ["vfat": "fusefat", "msdos": "fusefat", "exfat": "mount.exfat-fuse", "ntfs": "ntfs-3g"]

    public func mount(_ drive: Drive, cancel: CancelSignal?) throws(MountFailure) -> String {
        guard !drive.fsType.isEmpty else { throw Self.unknownFileSystem(drive) }
        let folder = try mountPoint(for: drive)
        var run = CommandRun.run(["mount", "-t", drive.fsType, "-o", Self.options(for: drive.fsType, user: user).joined(separator: ","), drive.device, folder],
                                 seconds: 30, cancel: cancel)
        if !run.succeeded, run.said.contains("unknown filesystem type"), let driver = Self.fuseDrivers[drive.fsType],
           ProgramSearch.executable(driver) != nil {
            // fsname: the device is the mount's source, so that it is known to be mounted.
            var options = (driver == "fusefat" ? ["rw+"] : []) + ["fsname=" + drive.device, "subtype=" + driver.split(separator: ".").last.map(String.init)!]
            if user.uid != 0 { options += ["allow_other", "uid=\(user.uid)", "gid=\(user.gid)", "umask=0077"] }
            run = CommandRun.run([driver, "-o", options.joined(separator: ","), drive.device, folder], seconds: 30, cancel: cancel)
            if run.succeeded { waitUntilMounted(folder) }
        }
        if run.ending == .cancelled { _ = rmdir(folder); throw MountFailure(.cancelled, "mounting \(drive.name) was cancelled") }
        guard run.succeeded else {
            _ = rmdir(folder)
            throw Self.failure(of: run, drive: drive)
        }
        return folder
    }

    public func unmount(_ volume: Volume) throws(MountFailure) -> String {
        _ = CommandRun.run(["sync", "-f", volume.mountPoint], seconds: 60)
        let run = CommandRun.run(["umount", volume.mountPoint], seconds: 60)
        guard run.succeeded else { throw MountFailure(.other, "\(volume.label) could not be unmounted: \(run.said)") }
        if volume.mountPoint.hasPrefix(mediaRoot + "/") { _ = rmdir(volume.mountPoint) }
        return "\(volume.label) can be removed safely"
    }

    /// `/media/USER/LABEL`, made for the purpose (`LABEL 2` when that one is taken).
    func mountPoint(for drive: Drive) throws(MountFailure) -> String {
        let base = drive.name.replacingSlashes()
        for parent in ["/media", mediaRoot] where access(parent, F_OK) != 0 {
            guard mkdir(parent, 0o755) == 0 || errno == EEXIST else {
                throw MountFailure(.permissionDenied, "\(parent) could not be made: \(String(cString: strerror(errno)))")
            }
        }
        for number in 1...50 {
            let folder = mediaRoot + "/" + (number == 1 ? base : "\(base) \(number)")
            if mkdir(folder, 0o700) == 0 {
                _ = chown(folder, user.uid, user.gid)
                return folder
            }
            guard errno == EEXIST else { throw MountFailure(.permissionDenied, "\(folder) could not be made: \(String(cString: strerror(errno)))") }
        }
        throw MountFailure(.other, "no free folder for \(drive.name) under \(mediaRoot)")
    }

    /// A FUSE driver returns once it forked; the mount shows in mountinfo a moment later.
    private func waitUntilMounted(_ folder: String) {
        for _ in 0..<100 {
            if VolumeMonitor.currentVolumes().contains(where: { $0.mountPoint == folder }) { return }
            usleep(20_000)
        }
    }

    static func unknownFileSystem(_ drive: Drive) -> MountFailure {
        MountFailure(.unknownFileSystem, "\(drive.device) holds no file system this machine recognises (empty, encrypted or damaged): "
                     + "`sudo fsck \(drive.device)` checks a damaged one; to use the drive, format it (all data on it is lost)")
    }

    /// mount(8)'s complaint as a sentence, with what to run when the file system is damaged.
    static func failure(of run: CommandRun, drive: Drive) -> MountFailure {
        let said = run.said
        if run.ending == .timedOut { return MountFailure(.timedOut, "mounting \(drive.name) took too long and was stopped") }
        if said.contains("unknown filesystem type") {
            return MountFailure(.unknownFileSystem, "this machine cannot mount \(drive.fsType) (\(drive.name)): the kernel lacks it and no FUSE driver for it is installed")
        }
        if said.contains("bad superblock") || said.contains("can't read superblock") || said.contains("Structure needs cleaning") {
            let checker = ["vfat": "fsck.vfat", "msdos": "fsck.vfat", "exfat": "fsck.exfat", "ntfs": "ntfsfix"][drive.fsType] ?? "fsck.\(drive.fsType)"
            return MountFailure(.damaged, "the \(drive.fsType) file system on \(drive.name) is damaged and was not mounted: "
                                + "run `sudo \(checker) \(drive.device)` to check and repair it")
        }
        if said.contains("permission denied") || said.contains("must be superuser") {
            return MountFailure(.permissionDenied, "mounting \(drive.name) needs root: \(said)")
        }
        return MountFailure(.other, "\(drive.name) could not be mounted: \(said)")
    }
}

private extension String {
    /// A label may hold "/", which a folder name cannot.
    func replacingSlashes() -> String { String(map { $0 == "/" ? "_" : $0 }) }
}
