import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Mounts through udisks2 over the system bus (`udisksctl`), as the user, as desktops do:
/// polkit decides, udisks2 picks the mount point (`/run/media/USER/LABEL` or `/media/USER/LABEL`)
/// and the options, and can power a USB drive off after unmounting it.
public struct UDisksMounter: Mounter {
    public init() {}

    public var name: String { "udisks2" }

    /// Whether the system bus is there and udisks2 answers on it (asked once, within 3 s).
    public static let isAvailable: Bool = {
        guard access("/run/dbus/system_bus_socket", F_OK) == 0, ProgramSearch.executable("udisksctl") != nil else { return false }
        return CommandRun.run(["udisksctl", "status"], seconds: 3).succeeded
    }()

    public func mount(_ drive: Drive, cancel: CancelSignal?) throws(MountFailure) -> String {
        guard !drive.fsType.isEmpty else { throw SystemMounter.unknownFileSystem(drive) }
        let run = CommandRun.run(["udisksctl", "mount", "--no-user-interaction", "-b", drive.device], seconds: 30, cancel: cancel)
        if run.ending == .cancelled { throw MountFailure(.cancelled, "mounting \(drive.name) was cancelled") }
        // "Mounted /dev/sdb1 at /media/ann/STICK" (with a full stop in some versions).
        if run.succeeded, let range = run.output.firstRange(of: " at ") {
            var point = String(run.output[range.upperBound...].split(separator: "\n").first ?? "")
            if point.hasSuffix(".") { point.removeLast() }
            return point
        }
        if run.said.contains("NotAuthorized") { throw MountFailure(.permissionDenied, "mounting \(drive.name) is not allowed for this user (polkit said no)") }
        throw SystemMounter.failure(of: run, drive: drive)
    }

    public func unmount(_ volume: Volume) throws(MountFailure) -> String {
        _ = CommandRun.run(["sync", "-f", volume.mountPoint], seconds: 60)
        let run = CommandRun.run(["udisksctl", "unmount", "--no-user-interaction", "-b", volume.source], seconds: 60)
        guard run.succeeded else {
            if run.said.contains("NotAuthorized") { throw MountFailure(.permissionDenied, "unmounting \(volume.label) is not allowed for this user (polkit said no)") }
            throw MountFailure(.other, "\(volume.label) could not be unmounted: \(run.said)")
        }
        // Powering off the whole USB drive; an internal disk says no, and is fine.
        guard let command = Self.powerOffCommand(for: volume.source) else { return "\(volume.label) can be removed safely" }
        let off = CommandRun.run(command, seconds: 30)
        return off.succeeded ? "\(volume.label) is powered off and can be removed safely" : "\(volume.label) can be removed safely"
    }

    /// `udisksctl power-off` for the drive `device` lies on: a partition's whole disk
    /// (`/dev/sdb1` → `/dev/sdb`, found in sysfs); nil for what has no drive to power off (a
    /// loop device, a device-mapper one, anything not under /dev).
    public static func powerOffCommand(for device: String, sysBlock: String = "/sys/class/block") -> [String]? {
        guard device.hasPrefix("/dev/"), let name = device.split(separator: "/").last.map(String.init),
              !name.hasPrefix("loop"), !name.hasPrefix("dm-") else { return nil }
        var disk = name
        // A partition's sysfs folder lies inside its disk's: /sys/class/block/sdb1 -> …/block/sdb/sdb1.
        if access(sysBlock + "/" + name + "/partition", F_OK) == 0, let target = readLink(sysBlock + "/" + name) {
            let parts = target.split(separator: "/")
            if parts.count >= 2 { disk = String(parts[parts.count - 2]) }
        }
        return ["udisksctl", "power-off", "--no-user-interaction", "-b", "/dev/" + disk]
    }
}
