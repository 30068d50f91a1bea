import CSystem
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
        guard posix_spawnp(&pid, command[0], &actions, nil, argv, CSystem_environment()) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xff
    }
}

/// The process environment as a dictionary.
enum ProcessEnvironmentReader {
    static func all() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = CSystem_environment()
        while let entry = pointer?.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            pointer = pointer?.advanced(by: 1)
        }
        return result
    }
}

/// Debug tracing to standard error (the log file while the UI runs), with QLBROWSE_TRACE set.
enum StandardStreamTrace {
    static func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
