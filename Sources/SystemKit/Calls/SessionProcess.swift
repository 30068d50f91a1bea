internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program that outlives its caller: in a session of its own (so it is in neither the
/// caller's process group nor its terminal), standard input from /dev/null, standard output and
/// error appended to a log, no other descriptor of the caller, default signal handling.
public enum SessionProcess {
    /// Spawns `arguments[0]` with the rest as arguments and this process's environment; returns
    /// its pid. A thread reaps it when it ends, so a long-running caller keeps no zombie.
    @discardableResult
    public static func start(_ arguments: [String], log: String) throws(FileSystemError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        CSystem_spawn_addclosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A caller that ignores SIGINT or SIGTERM (a batch stopping cleanly) must not pass that on.
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | CSystem_spawn_setsid_flag())
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        guard let program = argv[0] else { throw FileSystemError(errno: EINVAL, call: "posix_spawn", path: "") }
        let status = posix_spawn(&child, program, &actions, &attributes, argv, ProcessEnvironment.spawnEnvironment)
        guard status == 0 else { throw FileSystemError(errno: status, call: "posix_spawn", path: arguments.first ?? "") }
        let spawned = child
        DetachedThread.start(stackSize: 64 * 1024) { SystemCall.waitForExit(spawned) }
        return spawned
    }
}
