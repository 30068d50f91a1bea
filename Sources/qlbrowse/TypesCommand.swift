import ArgumentParser
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse types`: which content types get thumbnails, from which provider, and where that
/// provider came from (built in, or a `.thumbnailer` file), as the worker sees them.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List the content types qlbrowse can thumbnail and the provider serving each.")

    @Flag(help: "Tab-separated output for scripts.")
    var tsv = false

    func run() throws {
        let worker = WorkerPool.defaultExecutable()
        guard let output = CapturedProcess.run([worker, "--list-types"]) else {
            throw ValidationError("cannot run the thumbnail worker \(TerminalText.escaped(worker))")
        }
        let rows = output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }.filter { $0.count == 3 }
        if tsv {
            StandardStream.write(rows.map { $0.map(TerminalText.escaped).joined(separator: "\t") }.joined(separator: "\n") + "\n", to: 1)
            return
        }
        let typeWidth = min(60, rows.map { $0[0].count }.max() ?? 10)
        let providerWidth = rows.map { $0[1].count }.max() ?? 8
        var lines = ["TYPE".padding(typeWidth) + "  " + "PROVIDER".padding(providerWidth) + "  FROM"]
        for row in rows {
            lines.append(TerminalText.escaped(row[0]).padding(typeWidth) + "  " + TerminalText.escaped(row[1]).padding(providerWidth) + "  " + TerminalText.escaped(row[2]))
        }
        StandardStream.write(lines.joined(separator: "\n") + "\n", to: 1)
    }
}

/// Runs a program and returns its standard output (nil when it cannot start or fails).
enum CapturedProcess {
    static func run(_ command: [String]) -> String? {
        guard let pipe = try? SystemPipe.make() else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, argv, ProcessEnvironment.spawnEnvironment)
        close(pipe.writeEnd)
        defer { close(pipe.readEnd) }
        guard spawned == 0 else { return nil }
        // The catalogue is a few kilobytes; 16 MiB is far beyond any real one.
        let bytes = FileDescriptorReader.read(pipe.readEnd, upTo: 16 << 20) ?? []
        let status = SystemCall.waitForExit(pid)
        return status == 0 ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
