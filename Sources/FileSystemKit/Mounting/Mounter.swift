import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Mounts a drive that is not mounted and unmounts one that is: the one layer the volumes view,
/// `qlbrowse volumes mount` and `eject` go through, with one implementation per way the system
/// offers (udisks2 over the system bus, as desktops do; mount(8) as root).
public protocol Mounter: Sendable {
    /// What mounts, for messages and `qlbrowse volumes --json` ("udisks2", "mount(8)").
    var name: String { get }
    /// Mounts `drive` and returns where.
    func mount(_ drive: Drive, cancel: CancelSignal?) throws(MountFailure) -> String
    /// Flushes and unmounts `volume` (powering its drive off where it can) and returns what the
    /// user may now do ("safe to remove").
    func unmount(_ volume: Volume) throws(MountFailure) -> String
}

/// The mounter this machine offers.
public enum Mounters {
    /// udisks2 when its service answers on the system bus; else mount(8) when running as root;
    /// else one that says why nothing can be mounted.
    public static func preferred(environment: ProcessEnvironment = .current) -> any Mounter {
        if UDisksMounter.isAvailable { return UDisksMounter() }
        if geteuid() == 0 { return SystemMounter(user: MountUser(environment: environment)) }
        return UnavailableMounter()
    }
}

/// Whose files a mounted FAT, exFAT or NTFS drive holds (those file systems have no owners of
/// their own): the user who ran `sudo qlbrowse`, else the user running it.
public struct MountUser: Sendable, Equatable {
    public let name: String
    public let uid: UInt32
    public let gid: UInt32

    public init(name: String, uid: UInt32, gid: UInt32) {
        self.name = name
        self.uid = uid
        self.gid = gid
    }

    public init(environment: ProcessEnvironment) {
        if let name = environment["SUDO_USER"], let uid = environment["SUDO_UID"].flatMap(UInt32.init),
           let gid = environment["SUDO_GID"].flatMap(UInt32.init) {
            self.init(name: name, uid: uid, gid: gid)
        } else {
            self.init(name: environment["USER"] ?? (getuid() == 0 ? "root" : String(getuid())), uid: getuid(), gid: getgid())
        }
    }
}

/// Neither udisks2 nor root: says so.
struct UnavailableMounter: Mounter {
    var name: String { "none" }
    func mount(_ drive: Drive, cancel: CancelSignal?) throws(MountFailure) -> String {
        throw MountFailure(.permissionDenied, "\(drive.name) cannot be mounted: udisks2 is not running on the system bus, and mounting without it needs root (run qlbrowse with sudo)")
    }
    func unmount(_ volume: Volume) throws(MountFailure) -> String {
        throw MountFailure(.permissionDenied, "\(volume.label) cannot be unmounted: udisks2 is not running on the system bus, and unmounting without it needs root")
    }
}
