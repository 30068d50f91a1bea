import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// What a volume allows, found by asking it (statvfs, a look-up with the case swapped, a trial
/// symlink), not by guessing from where it is mounted: file operations check these before they
/// write a byte.
public struct VolumeCapabilities: Sendable, Equatable {
    public var isReadOnly: Bool
    /// Longest file name in bytes.
    public var nameMax: Int
    /// nil when it could not be told (nothing to look up, and no trial allowed).
    public var isCaseInsensitive: Bool?
    /// nil when it could not be told.
    public var supportsSymlinks: Bool?
    /// The largest file the filesystem can hold, when it has a small limit (FAT: 4 GiB − 1).
    public var maximumFileSize: Int64?
    /// Characters the filesystem refuses in names (FAT and SMB: `\ : * ? " < > |`).
    public var forbiddenCharacters: [Character]

    /// Capabilities as another machine found them (a remote place's volume).
    public init(isReadOnly: Bool, nameMax: Int, isCaseInsensitive: Bool?, supportsSymlinks: Bool?, maximumFileSize: Int64?, forbiddenCharacters: [Character]) {
        self.isReadOnly = isReadOnly
        self.nameMax = nameMax
        self.isCaseInsensitive = isCaseInsensitive
        self.supportsSymlinks = supportsSymlinks
        self.maximumFileSize = maximumFileSize
        self.forbiddenCharacters = forbiddenCharacters
    }

    /// Filesystems with FAT's rules: 4 GiB files, no symlinks, DOS's forbidden characters.
    static let fatFamily: Set<String> = ["vfat", "msdos", "fuse.fusefat"]
    static let exfatFamily: Set<String> = ["exfat", "fuse.exfat", "fuse.fuse-exfat"]
    static let windowsNaming: Set<String> = ["vfat", "msdos", "fuse.fusefat", "exfat", "fuse.exfat", "fuse.fuse-exfat", "cifs", "smb3", "smbfs", "fuse.smbnetfs", "ntfs", "ntfs3", "fuseblk"]

    /// Probes the volume holding `folder`, of filesystem type `fsType`. With `trial`, a probe file
    /// is created in `folder` (and removed) to settle case and symlinks exactly; without, only
    /// reads are made. Blocking: run it through `VolumeIO`.
    public static func probe(folder: String, fsType: String, trial: Bool) -> VolumeCapabilities {
        var info = statvfs()
        let known = statvfs(folder, &info) == 0
        var capabilities = VolumeCapabilities(
            isReadOnly: known && (info.f_flag & UInt(ST_RDONLY)) != 0, nameMax: known && info.f_namemax > 0 ? Int(clamping: info.f_namemax) : 255,
            isCaseInsensitive: nil, supportsSymlinks: fatFamily.contains(fsType) || exfatFamily.contains(fsType) ? false : nil,
            maximumFileSize: fatFamily.contains(fsType) ? 4 * 1024 * 1024 * 1024 - 1 : nil,
            forbiddenCharacters: windowsNaming.contains(fsType) ? Array("\\:*?\"<>|") : [])
        capabilities.isCaseInsensitive = caseInsensitivityFromNames(in: folder)
        if trial && !capabilities.isReadOnly { capabilities.settleByTrial(in: folder) }
        return capabilities
    }

    /// Looks up an existing name with its case swapped: found, and the same file, means the
    /// filesystem folds case.
    static func caseInsensitivityFromNames(in folder: String) -> Bool? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var checked = 0
        while let entry = readdir(directory), checked < 50 {
            let name = entry.pointee.name
            let swapped = String(name.map { $0.isUppercase ? Character($0.lowercased()) : $0.isLowercase ? Character($0.uppercased()) : $0 })
            guard swapped != name, name.allSatisfy(\.isASCII) else { continue }
            checked += 1
            var original = stat(), other = stat()
            guard lstat(folder + "/" + name, &original) == 0 else { continue }
            return lstat(folder + "/" + swapped, &other) == 0 && other.st_ino == original.st_ino
        }
        return nil
    }

    private mutating func settleByTrial(in folder: String) {
        let base = folder + "/.qlbrowse-probe-\(getpid())-aB"
        let fd = open(base, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        close(fd)
        defer { unlink(base) }
        var info = stat()
        isCaseInsensitive = stat(folder + "/.qlbrowse-probe-\(getpid())-Ab", &info) == 0
        let link = base + "-link"
        supportsSymlinks = symlink(base, link) == 0
        unlink(link)
    }

    /// Why `name` cannot be created on this volume, or nil when it can.
    public func problem(withName name: String) -> String? {
        if name.fileSystemBytes.count > nameMax { return "the name is longer than the \(nameMax) bytes this volume allows" }
        if let bad = name.first(where: { forbiddenCharacters.contains($0) }) { return "this volume does not allow \"\(bad)\" in names" }
        return nil
    }

    /// A short description for the volumes view: "read-only · case-insensitive · no symlinks · files ≤ 4 GiB".
    public var summary: String {
        var parts: [String] = []
        if isReadOnly { parts.append("read-only") }
        if isCaseInsensitive == true { parts.append("case-insensitive") }
        if supportsSymlinks == false { parts.append("no symlinks") }
        if maximumFileSize != nil { parts.append("files ≤ 4 GiB") }
        if !forbiddenCharacters.isEmpty { parts.append("no \\ : * ? \" < > | in names") }
        return parts.isEmpty ? "no special limits found" : parts.joined(separator: " · ")
    }
}
