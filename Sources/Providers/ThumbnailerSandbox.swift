import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Whether external thumbnailers run inside bubblewrap, as GNOME runs them: a read-only view of
/// the system, the input file read-only, only the private output folder writable, no network,
/// no other process visible, killed when the worker dies.
///
/// `automatic` uses `bwrap` when it is on `PATH` *and* works: bwrap needs user namespaces (or to
/// be setuid), which some containers and hardened kernels refuse. That is tried once per process
/// (`bwrap --ro-bind / / --unshare-all --die-with-parent true`); when it fails the command runs
/// as a plain subprocess, still without a shell, under the worker's own limits.
public enum ThumbnailerSandbox: Sendable, Equatable {
    case automatic
    case none

    /// The bwrap to use for this process, or nil to run plainly.
    var bubblewrap: String? {
        switch self {
        case .automatic: return Self.workingBubblewrap
        case .none: return nil
        }
    }

    /// Looked for and tried once per process.
    private static let workingBubblewrap: String? = {
        guard let bwrap = ProgramSearch.executable("bwrap", searchPath: ProgramSearch.processSearchPath) else { return nil }
        let probe = [bwrap, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"]
        let outcome = try? ThumbnailerProcess.run(probe, directory: "/", deadline: 5, cancellation: nil)
        return outcome == .exited(0) ? bwrap : nil
    }()

    /// Whether this process runs thumbnailers inside bubblewrap.
    public static var isBubblewrapUsable: Bool { workingBubblewrap != nil }

    /// `command` (its program an absolute path) wrapped in bwrap with the bindings it needs.
    static func wrap(_ command: [String], bubblewrap: String, input: String, outputDirectory: String) -> [String] {
        var arguments = [bubblewrap, "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
        // On merged-/usr systems these are symbolic links into /usr: recreate the links, as GNOME does.
        for directory in ["/lib", "/lib64", "/bin", "/sbin"] {
            if FileSystem.isSymbolicLink(directory), let target = readLink(directory) {
                arguments += ["--symlink", target, directory]
            } else {
                arguments += ["--ro-bind-try", directory, directory]
            }
        }
        arguments += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        // A thumbnailer installed outside /usr (~/.local/bin, /opt/…) must see its own folder, read-only.
        if let program = command.first, !program.hasPrefix("/usr/") {
            let folder = String(program[..<(program.lastIndex(of: "/") ?? program.startIndex)])
            if !folder.isEmpty { arguments += ["--ro-bind", folder, folder] }
        }
        arguments += ["--ro-bind", input, input, "--bind", outputDirectory, outputDirectory,
                      "--unshare-all", "--die-with-parent", "--chdir", "/", "--"]
        return arguments + command
    }
}
