import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// What qlbrowse connected and where, and the servers the user connected to lately. Live
/// connections are kept beside their mount points (`$XDG_RUNTIME_DIR/qlbrowse/servers/`, gone
/// at logout as the mounts are), so that `qlbrowse disconnect URL` finds one made by another
/// qlbrowse; recent servers in `$XDG_STATE_HOME/qlbrowse/recent-servers`, one address a line,
/// never with a password.
public struct ConnectionBook: Sendable {
    public let environment: ProcessEnvironment
    /// How many recent servers are kept.
    public static let recentLimit = 10

    public init(environment: ProcessEnvironment = .current) { self.environment = environment }

    /// The private folder server mounts go in: under the runtime folder, else a private folder in /tmp.
    public func mountRoot() throws(MountFailure) -> String {
        let parent = environment.runtimeDirectory.map { $0 + "/qlbrowse" } ?? "/tmp/qlbrowse-\(geteuid())"
        do throws(FileSystemError) {
            try PrivateFolder.make(parent)
            try PrivateFolder.make(parent + "/servers")
        } catch {
            throw MountFailure(.permissionDenied, "no private folder for server mounts: \(error.message)")
        }
        return parent + "/servers"
    }

    private var bookPath: String? { try? mountRoot() + "/.connections" }
    private var recentPath: String { environment.stateHome + "/qlbrowse/recent-servers" }

    /// The connections recorded, whether or not still mounted.
    public func connections() -> [ServerConnection] {
        guard let path = bookPath, let bytes = FileDescriptorReader.readFile(path, upTo: 1 << 20) else { return [] }
        return String(fileSystemBytes: bytes).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let address = try? ServerAddress(parsing: fields[0]) else { return nil }
            return ServerConnection(address: address, mountPoint: fields[1], folder: fields[2], privateFolder: fields[3])
        }
    }

    /// The connection mounted at `mountPoint`, or made to the address `url`.
    public func connection(named word: String) -> ServerConnection? {
        let address = try? ServerAddress(parsing: word)
        return connections().first { $0.mountPoint == word || $0.address == address || $0.address.label == word }
    }

    /// Whether something is mounted at `mountPoint` now.
    public func isMounted(_ mountPoint: String) -> Bool {
        // A GVfs mount is a folder in gvfsd-fuse's mount, not a mount of its own.
        if GVfs.isMountFolder(mountPoint, environment: environment) { return access(mountPoint, F_OK) == 0 }
        return VolumeMonitor.currentVolumes().contains { $0.mountPoint == mountPoint }
    }

    /// Records a new connection, and puts its address first among the recent servers.
    public func remember(_ connection: ServerConnection) {
        let others = connections().filter { $0.mountPoint != connection.mountPoint && isMounted($0.mountPoint) }
        write(others + [connection])
        let url = connection.address.url
        let lines = [url] + recent().filter { $0 != url }
        if FolderMaker.make(environment.stateHome + "/qlbrowse") || access(environment.stateHome + "/qlbrowse", F_OK) == 0 {
            Self.replace(recentPath, with: lines.prefix(Self.recentLimit).joined(separator: "\n") + "\n")
        }
    }

    /// Drops the connection at `mountPoint` and removes its private folder and mount point.
    public func forget(mountPoint: String) {
        let all = connections()
        for gone in all where gone.mountPoint == mountPoint {
            if !gone.privateFolder.isEmpty { Self.removeTree(gone.privateFolder) }
            if !GVfs.isMountFolder(gone.mountPoint, environment: environment) { _ = rmdir(gone.mountPoint) }
        }
        write(all.filter { $0.mountPoint != mountPoint })
    }

    /// Servers connected to lately, most recent first (addresses without passwords).
    public func recent() -> [String] {
        guard let bytes = FileDescriptorReader.readFile(recentPath, upTo: 1 << 16) else { return [] }
        return String(fileSystemBytes: bytes).split(separator: "\n").map(String.init).filter { (try? ServerAddress(parsing: $0)) != nil }
    }

    private func write(_ connections: [ServerConnection]) {
        guard let path = bookPath else { return }
        let text = connections.map { [$0.address.url, $0.mountPoint, $0.folder, $0.privateFolder].joined(separator: "\t") + "\n" }.joined()
        Self.replace(path, with: text)
    }

    /// Writes `text` to a temporary file beside `path` (0600) and renames it over `path`.
    static func replace(_ path: String, with text: String) {
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = FileDescriptorWriter.writeAll(Array(text.fileSystemBytes), to: fd)
        close(fd)
        if written { _ = rename(temporary, path) } else { _ = unlink(temporary) }
    }

    /// Removes a small private folder qlbrowse made (files and folders, no links followed).
    static func removeTree(_ path: String) {
        for entry in DirectoryEntries.list(path) {
            let child = path + "/" + entry.name
            if entry.type == Int32(DT_DIR) { removeTree(child) } else { _ = unlink(child) }
        }
        _ = rmdir(path)
    }
}

/// Makes `path` 0700; false when it exists or cannot be made.
func makeFolder(_ path: String) -> Bool { mkdir(path, 0o700) == 0 }
