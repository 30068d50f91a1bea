import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Finds the drives that could be mounted and are not: partitions (or unpartitioned disks) of
/// removable and USB drives, and attached disk images (loop devices with a backing file), read
/// from sysfs; their file system, label and UUID from blkid's probe. A fixed internal disk is
/// left out (the system's own partitions are not the user's to mount from a file browser), and
/// so are devices something is stacked on (LVM, LUKS) and disks whose partitions are listed.
public enum DriveScanner {
    /// The drives not mounted now, sorted by device.
    public static func unmounted(mountinfoPath: String = "/proc/self/mountinfo", sysBlock: String = "/sys/class/block") -> [Drive] {
        let mounts = mountedDevices(mountinfoPath: mountinfoPath)
        // By number (the kernel's mounts) or by name (FUSE drivers mounted with fsname=DEVICE).
        let mounted = Set(mounts.map(\.device) + mounts.map(\.source))
        let names = DirectoryEntries.list(sysBlock).map(\.name).sorted()
        return names.compactMap { name -> Drive? in
            let base = sysBlock + "/" + name
            guard let number = read(base + "/dev"), !mounted.contains(number) else { return nil }
            guard isCandidate(name: name, base: base), !mounted.contains("/dev/" + name) else { return nil }
            // A disk whose partitions are listed is reached through them; a device with holders
            // (device-mapper, md) through what is stacked on it.
            if names.contains(where: { $0 != name && $0.hasPrefix(name) && exists(base + "/" + $0) }) { return nil }
            if !DirectoryEntries.list(base + "/holders").isEmpty { return nil }
            let sectors = UInt64(read(base + "/size") ?? "") ?? 0
            guard sectors > 0 else { return nil }
            let device = "/dev/" + name
            let facts = probe(device)
            if facts["TYPE"] == "swap" || facts["USAGE"].map({ $0 != "filesystem" }) == true { return nil }
            return Drive(device: device, fsType: facts["TYPE"] ?? "", label: facts["LABEL"] ?? "", uuid: facts["UUID"] ?? "",
                         size: sectors * 512, isRemovable: true)
        }
    }

    /// The drive `word` names (label, device, UUID), among those not mounted.
    public static func find(_ word: String) -> Drive? {
        unmounted().first { $0.isNamed(word) }
    }

    /// Removable media, USB disks, and loop devices with a file behind them.
    static func isCandidate(name: String, base: String) -> Bool {
        if name.hasPrefix("loop") { return exists(base + "/loop/backing_file") }
        if ["ram", "zram", "dm-", "md", "sr", "fd"].contains(where: { name.hasPrefix($0) }) { return false }
        let disk = exists(base + "/partition") ? base + "/.." : base
        if read(disk + "/removable") == "1" { return true }
        return readLink(base)?.contains("/usb") == true
    }

    /// Every mount: its device's major:minor and its source.
    static func mountedDevices(mountinfoPath: String) -> [MountTable.Mount] {
        guard let bytes = FileDescriptorReader.readFile(mountinfoPath, upTo: 4 << 20) else { return [] }
        return MountTable.parse(bytes: bytes)
    }

    /// blkid's low-level probe (reads the device: root, or a member of group disk); where it may
    /// not, lsblk's answer from the udev database.
    static func probe(_ device: String) -> [String: String] {
        let probed = CommandRun.run(["blkid", "-p", "-o", "export", device], seconds: 5)
        if probed.succeeded { return pairs(probed.output, separator: "\n") }
        if probed.ending == .exited(2) { return [:] }  // read, nothing recognised
        let listed = CommandRun.run(["lsblk", "-P", "-n", "-o", "FSTYPE,LABEL,UUID", device], seconds: 5)
        let found = pairs(listed.output.replacingSpaces(), separator: "\n")
        return ["TYPE": found["FSTYPE"] ?? "", "LABEL": found["LABEL"] ?? "", "UUID": found["UUID"] ?? ""].filter { !$0.value.isEmpty }
    }

    /// `NAME=value` lines (blkid) or `NAME="value"` words (lsblk -P) as a dictionary.
    static func pairs(_ text: String, separator: Character) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: separator) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            var value = String(line[line.index(after: equals)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            result[String(line[..<equals])] = value
        }
        return result
    }

    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    private static func read(_ path: String) -> String? {
        guard let bytes = FileDescriptorReader.readFile(path, upTo: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}

private extension String {
    /// lsblk -P puts its pairs on one line, separated by spaces outside the quotes.
    func replacingSpaces() -> String {
        var quoted = false
        return String(map { character -> Character in
            if character == "\"" { quoted.toggle() }
            return character == " " && !quoted ? "\n" : character
        })
    }
}
