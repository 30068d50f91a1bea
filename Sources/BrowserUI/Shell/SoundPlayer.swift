import BrowserCore
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Plays a song's or a video's sound while Quick Look plays it, through the system's player:
/// `ffplay` (ffmpeg) or `mpv`, without a window, from a given time. One at a time; stopped when
/// Quick Look pauses, seeks, moves to another file, closes, or the browser quits.
final class SoundPlayer {
    private var pid: pid_t = 0

    /// The player found on the PATH, with the arguments that play `path` from `seconds` quietly.
    static let command: (@Sendable (String, Double) -> [String])? = {
        if let ffplay = ProgramSearch.executable("ffplay") {
            return { [ffplay, "-nodisp", "-autoexit", "-loglevel", "quiet", "-ss", DisplayFormat.oneDecimal(max(0, $1)), $0] }
        }
        if let mpv = ProgramSearch.executable("mpv") {
            return { [mpv, "--no-video", "--really-quiet", "--start=" + DisplayFormat.oneDecimal(max(0, $1)), $0] }
        }
        return nil
    }()

    /// Starts playing; false when no player is installed.
    func play(_ path: String, from seconds: Double) -> Bool {
        stop()
        guard let command = Self.command?(path, seconds) else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: stopping it stops whatever it started.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, ProcessEnvironment.spawnEnvironment) == 0
    }

    func stop() {
        guard pid > 0 else { return }
        kill(-pid, SIGTERM)
        SystemCall.waitForExit(pid)
        pid = 0
    }
}
