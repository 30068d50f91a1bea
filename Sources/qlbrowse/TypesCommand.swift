import ArgumentParser
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse types`: which content types get thumbnails, from which provider, and where that
/// provider came from (built in, or a `.thumbnailer` file); then which types have a custom
/// previewer (a `.previewer` file) for Quick Look, and whether it wins over the built-in view. As
/// the worker sees them.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List the content types qlbrowse can thumbnail and the provider serving each, then the custom previewers.",
        discussion: """
            With --tsv, a thumbnail row is TYPE, PROVIDER, FROM; a previewer row has two more \
            columns: OUTPUT (text or image) and override (wins over the built-in view) or fallback.
            """)

    @Flag(help: "Tab-separated output for scripts.")
    var tsv = false

    func run() throws {
        let worker = WorkerPool.defaultExecutable()
        guard let types = WorkerTypes.read(worker: worker) else {
            throw RuntimeError("cannot run the thumbnail worker \(TerminalText.escaped(worker))")
        }
        let thumbnailers = types.thumbnailers.map { $0.map(TerminalText.escaped) }, previewers = types.previewers.map { $0.map(TerminalText.escaped) }
        if tsv {
            StandardStream.write((thumbnailers + previewers).map { $0.joined(separator: "\t") + "\n" }.joined(), to: 1)
            return
        }
        var lines = Self.table(["TYPE", "PROVIDER", "FROM"], thumbnailers)
        if !previewers.isEmpty {
            lines += ["", "Custom previewers (Quick Look):"]
            lines += Self.table(["TYPE", "PREVIEWER", "OUTPUT", "OVERRIDES BUILT-IN", "FROM"],
                                previewers.map { [$0[0], $0[1], $0[3], $0[4] == "override" ? "yes" : "no", $0[2]] })
        }
        StandardStream.write(lines.joined(separator: "\n") + "\n", to: 1)
    }

    /// Columns padded to their widest cell (the first at most 60), the last one as it is.
    private static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in
            min(column == 0 ? 60 : .max, ([header] + rows).map { $0[column].count }.max() ?? 0)
        }
        return ([header] + rows).map { row in
            row.indices.map { $0 == row.count - 1 ? row[$0] : row[$0].padding(widths[$0]) }.joined(separator: "  ")
        }
    }
}
