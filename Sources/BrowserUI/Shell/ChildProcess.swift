import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion with the terminal, for pagers, editors and openers.
enum ChildProcess {
    /// The command that opens `path`: text in `$VISUAL`/`$EDITOR`/`$PAGER` (or less), the rest with `xdg-open`.
    static func opener(for path: String, isText: Bool, environment: [String: String]) -> [String] {
        guard isText else { return ["xdg-open", path] }
        let program = environment["VISUAL"] ?? environment["EDITOR"] ?? environment["PAGER"] ?? "less"
        return program.split(separator: " ").map(String.init) + [path]
    }

    /// The exit status; 127 when the program was not found.
    static func run(_ command: [String], quiet: Bool) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, argv[0]!, &actions, nil, argv, ProcessEnvironment.spawnEnvironment) == 0 else { return 127 }
        return (SystemCall.waitForExit(pid) >> 8) & 0xff
    }
}

/// Debug tracing to standard error (the log file while the UI runs), with QLBROWSE_TRACE set.
enum StandardStreamTrace {
    static func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
