/// A partition (or whole disk, or attached disk image) with a file system on it that is not
/// mounted: what the volumes view lists as "not mounted" and Enter mounts.
public struct Drive: Sendable, Equatable, Hashable {
    /// The block device, `/dev/sdb1`, `/dev/loop0`.
    public let device: String
    /// The file system blkid found: `vfat`, `ext4`, `exfat`, `ntfs`.
    public let fsType: String
    /// The file system's label, empty when it has none.
    public let label: String
    public let uuid: String
    /// Size of the partition, in bytes.
    public let size: UInt64
    /// A USB stick, an SD card, a disk image: one the user plugged in or attached.
    public let isRemovable: Bool

    public init(device: String, fsType: String, label: String, uuid: String, size: UInt64, isRemovable: Bool) {
        self.device = device
        self.fsType = fsType
        self.label = label
        self.uuid = uuid
        self.size = size
        self.isRemovable = isRemovable
    }

    /// What to call it: the label, else the device's name (`sdb1`).
    public var name: String { label.isEmpty ? String(device.split(separator: "/").last ?? "") : label }

    /// Whether `word` names this drive: its label, its device (`/dev/sdb1` or `sdb1`) or its UUID.
    public func isNamed(_ word: String) -> Bool {
        word == label || word == device || "/dev/" + word == device || (!uuid.isEmpty && word == uuid)
    }
}
