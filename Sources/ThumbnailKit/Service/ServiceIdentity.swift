import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// What makes two `qlbrowse` processes interchangeable as service and client: the same program
/// file (path, inode, size, modification time), the same worker file, and the same values of
/// the variables the workers read. A client and a service whose identities differ do not talk:
/// the service steps aside and the client starts its own (a new build replaces the old service).
package enum ServiceIdentity {
    /// Bumped when the messages between client and service change shape.
    package static let protocolVersion = 2

    /// The variables that decide what the workers do (preferred external thumbnailers, where
    /// `.thumbnailer` and `.previewer` files are found). `PATH` and `TMPDIR` are not among them:
    /// they change from shell to shell (pyenv, virtual environments, perf) and callers that
    /// differ only there replaced each other's service at every call. Other variables of a
    /// service are those of the call that started it.
    package static let variables = ["QLBROWSE_PREFER_EXTERNAL", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS", "HOME"]

    /// This process's identity: its own program, `workerExecutable`, and `environment`.
    package static func current(workerExecutable: String, environment: ProcessEnvironment) -> String {
        describe(files: [("qlbrowse", "/proc/self/exe"), ("worker", workerExecutable)].map { ($0.0, stamp(of: $0.1)) },
                 environment: environment)
    }

    /// The identity text for these file stamps and environment (pure, for tests).
    package static func describe(files: [(role: String, stamp: String)], environment: ProcessEnvironment) -> String {
        let settings = variables.map { "\($0)=\(environment[$0] ?? "")" }.joined(separator: "\n")
        let digest = MD5.hex(settings)
        return (["v\(protocolVersion)"] + files.map { "\($0.role)=\($0.stamp)" } + ["env=\(digest)"]).joined(separator: " ")
    }

    /// `path@device:inode:size:mtime` of the file behind `path` (a program being run keeps its
    /// own inode even after a new build replaced the file), or `path@missing`.
    static func stamp(of path: String) -> String {
        let name = path == "/proc/self/exe" ? ownExecutable() : path
        var status = stat()
        guard stat(path, &status) == 0 else { return "\(name)@missing" }
        return "\(name)@\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// This program's path (`… (deleted)` once a new build replaced it).
    package static func ownExecutable() -> String { OwnExecutable.path ?? "qlbrowse" }
}
