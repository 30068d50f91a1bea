import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Where the resident service listens: a folder only this user may enter, holding the socket,
/// the lock that lets one client at a time start a service, and the running service's pid.
package struct ServiceEndpoint: Sendable, Equatable {
    /// `$XDG_RUNTIME_DIR/qlbrowse`, else `/tmp/qlbrowse-UID`.
    package let folder: String

    package init(folder: String) { self.folder = folder }

    package var socketPath: String { folder + "/service.sock" }
    package var lockPath: String { folder + "/service.lock" }
    /// The running service's pid, one line (for scripts and tests that must stop it).
    package var pidPath: String { folder + "/service.pid" }

    /// The folder for `uid`: under `$XDG_RUNTIME_DIR` when it is set (an absolute path), else a
    /// folder named with the uid in /tmp, which `prepare` checks is ours before trusting it.
    package static func folder(environment: ProcessEnvironment, uid: UInt32) -> String {
        if let runtime = environment.runtimeDirectory {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/qlbrowse"
        }
        return "/tmp/qlbrowse-\(uid)"
    }

    /// This user's endpoint, its folder made (0700) or checked private; throws when it cannot
    /// be trusted or the socket's path is too long for a Unix socket.
    package static func prepare(environment: ProcessEnvironment) throws(FileSystemError) -> ServiceEndpoint {
        let endpoint = ServiceEndpoint(folder: folder(environment: environment, uid: geteuid()))
        guard endpoint.socketPath.utf8.count < 108 else {
            throw FileSystemError(code: .invalid, path: endpoint.socketPath, context: "the service's socket path is too long: \(endpoint.socketPath)")
        }
        try PrivateFolder.make(endpoint.folder)
        return endpoint
    }

    /// The socket file's device and inode, nil when there is none: a service tells by it whether
    /// the socket at the path is still its own.
    package func socketFileID() -> FileID? {
        var status = stat()
        guard lstat(socketPath, &status) == 0 else { return nil }
        return FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// A file's identity on its volume.
    package struct FileID: Sendable, Equatable {
        package let device: UInt64
        package let inode: UInt64
    }
}
