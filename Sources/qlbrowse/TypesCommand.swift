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
        guard let output = ProcessOutput.run([worker, "--list-types"]).map({ String(decoding: $0, as: UTF8.self) }) else {
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

