import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Watches the mount table and reports the volumes, with their size and free space and whether
/// they answer. Mounts and unmounts are seen at once (the kernel wakes `poll` on mountinfo), and
/// every few seconds anyway. Sizes are asked through `VolumeIO`, so a hung share shows as
/// "not responding" instead of freezing anything.
public final class VolumeMonitor: Sendable {
    /// A volume as last seen.
    public struct Status: Sendable, Equatable {
        public let volume: Volume
        /// Bytes in all and free (for the user); nil until asked, or when the volume did not answer.
        public var totalBytes: UInt64?
        public var freeBytes: UInt64?
        public var isResponding: Bool
        /// Still in the mount table but gone underneath: the FUSE daemon died, the server is
        /// gone (`VolumeGone`: ENOTCONN, ESTALE, ENODEV…).
        public var isDisconnected = false

        public init(volume: Volume, totalBytes: UInt64? = nil, freeBytes: UInt64? = nil, isResponding: Bool = true) {
            self.volume = volume
            self.totalBytes = totalBytes
            self.freeBytes = freeBytes
            self.isResponding = isResponding
        }
    }

    private let io: VolumeIO
    private let deliver: @Sendable ([Status]) -> Void
    private let latest = Mutex<[Status]>([])
    private let stopped = Atomic<Bool>(false)
    private let mountinfoPath: String

    /// Starts watching; `deliver` hears the whole list whenever anything changes (on a background thread).
    public init(io: VolumeIO = .shared, mountinfoPath: String = "/proc/self/mountinfo", deliver: @escaping @Sendable ([Status]) -> Void) {
        self.io = io
        self.deliver = deliver
        self.mountinfoPath = mountinfoPath
        // The first look is synchronous (mountinfo and sysfs are kernel memory, they do not hang),
        // so that callers know the volumes before their first listing.
        latest.withLock { $0 = Self.currentVolumes(mountinfoPath: mountinfoPath).map { Status(volume: $0, isResponding: io.isResponding($0.mountPoint)) } }
        let thread = DispatchQueue(label: "qlbrowse.volumes")
        thread.async { [self] in watch() }
    }

    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// The volumes as last seen.
    public var volumes: [Status] { latest.withLock { $0 } }

    /// Reads the mount table once: every volume not hidden, sorted by kind then mount point.
    public static func currentVolumes(mountinfoPath: String = "/proc/self/mountinfo") -> [Volume] {
        guard let bytes = FileDescriptorReader.readFile(mountinfoPath, upTo: 4 << 20) else { return [] }
        var seen = Set<String>()
        // Later mounts on the same point hide earlier ones: keep the last.
        let mounts = MountTable.parse(bytes: bytes).reversed().filter { seen.insert($0.mountPoint).inserted }
        return mounts.compactMap { mount -> Volume? in
            let kind = VolumeClassifier.kind(of: mount, isRemovableDevice: isRemovable(device: mount.device))
            guard kind != .hidden else { return nil }
            return Volume(mountPoint: mount.mountPoint, fsType: mount.fsType, source: mount.source, device: mount.device, kind: kind,
                          isReadOnly: mount.isReadOnly, label: VolumeClassifier.label(of: mount, kind: kind))
        }.sorted { ($0.kind, $0.mountPoint) < ($1.kind, $1.mountPoint) }
    }

    /// Whether the block device `major:minor` (or the disk it is a partition of) says it is removable.
    static func isRemovable(device: String) -> Bool {
        guard !device.hasPrefix("0:") else { return false }
        let base = "/sys/dev/block/\(device)"
        for path in [base + "/removable", base + "/../removable"] {
            if let bytes = FileDescriptorReader.readFile(path, upTo: 16), bytes.first == UInt8(ascii: "1") { return true }
        }
        // USB disks that do not set the flag (many SSD enclosures) are still USB: a part of the
        // device's path in sysfs is a USB bus or port (`…/usb2/2-1/…`). Compared as bytes: a
        // String search would bring the string-processing library's code into every start.
        guard let link = readLink(base) else { return false }
        return link.utf8.split(separator: UInt8(ascii: "/")).contains { $0.starts(with: "usb".utf8) }
    }

    private func watch() {
        var lastVolumes: [Volume] = []
        var lastSizes = 0.0
        let fd = open(mountinfoPath, O_RDONLY | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        var first = true
        while !stopped.load(ordering: .relaxed) {
            if !first && fd >= 0 {
                // The kernel flags mountinfo with POLLPRI when the mount table changes.
                var entry = pollfd(fd: fd, events: Int16(POLLPRI), revents: 0)
                _ = poll(&entry, 1, 1000)
                if entry.revents != 0 { _ = lseek(fd, 0, SEEK_SET); var scratch = [UInt8](repeating: 0, count: 65536); while read(fd, &scratch, scratch.count) > 0 {} }
            }
            first = false
            let volumes = Self.currentVolumes(mountinfoPath: mountinfoPath)
            let now = Double(io.clock.now()) / 1e9
            if volumes != lastVolumes || now - lastSizes > 3 {
                lastVolumes = volumes
                lastSizes = now
                refresh(volumes)
            } else {
                // Responsiveness can change without a mount change (a share hangs or recovers).
                let changed = latest.withLock { statuses -> Bool in
                    var changed = false
                    for index in statuses.indices {
                        let responding = io.isResponding(statuses[index].volume.mountPoint)
                        if statuses[index].isResponding != responding { statuses[index].isResponding = responding; changed = true }
                    }
                    return changed
                }
                if changed { deliver(latest.withLock { $0 }) }
            }
        }
    }

    /// Publishes the new list at once (sizes carried over), then asks each volume for its size.
    private func refresh(_ volumes: [Volume]) {
        let previous = latest.withLock { $0 }
        let statuses = volumes.map { volume in
            let old = previous.first { $0.volume == volume }
            return Status(volume: volume, totalBytes: old?.totalBytes, freeBytes: old?.freeBytes, isResponding: io.isResponding(volume.mountPoint))
        }
        latest.withLock { $0 = statuses }
        deliver(statuses)
        for volume in volumes {
            let mountPoint = volume.mountPoint
            // 5 s: on a machine under heavy load a thread may wait a second just to be scheduled,
            // and a false "not responding" would refuse work to a healthy disk.
            io.run(volume: mountPoint, deadline: 5.0, { () -> Result<(UInt64, UInt64), FileSystemError> in
                var info = statvfs()
                do throws(FileSystemError) {
                    _ = try SystemCall.run("statvfs", path: mountPoint) { statvfs(mountPoint, &info) }
                } catch {
                    return .failure(error)
                }
                // A FUSE file system may report any count ("unlimited" as all ones): saturate, never trap.
                let bytes = { (blocks: UInt) in UInt64(blocks).multipliedReportingOverflow(by: UInt64(info.f_frsize)) }
                let (total, free) = (bytes(info.f_blocks), bytes(info.f_bavail))
                return .success((total.overflow ? .max : total.partialValue, free.overflow ? .max : free.partialValue))
            }, completion: { [self] outcome in
                let updated = latest.withLock { statuses -> Bool in
                    guard let index = statuses.firstIndex(where: { $0.volume.mountPoint == mountPoint }) else { return false }
                    switch outcome {
                    case .done(.success(let sizes)):
                        statuses[index].totalBytes = sizes.0
                        statuses[index].freeBytes = sizes.1
                        statuses[index].isResponding = true
                        statuses[index].isDisconnected = false
                    case .done(.failure(let error)):
                        statuses[index].isDisconnected = error.meansVolumeGone
                    case .timedOut, .refused:
                        statuses[index].isResponding = false
                    }
                    return true
                }
                if updated { deliver(latest.withLock { $0 }) }
            })
        }
    }
}
