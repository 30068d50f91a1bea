import ArgumentParser
import FileSystemKit
import Places
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse copy|move|trash`: the browser's file operations for scripts, with the same
/// guarantees (checks first, temporaries and atomic renames, all or nothing per item, thumbnails
/// that follow their files, the freedesktop trash).
struct FileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "Copy, move or trash files the way the browser does.",
        subcommands: [Copy.self, Move.self, Trash.self])

    enum Clash: String, ExpressibleByArgument, CaseIterable {
        case skip, overwrite, keepBoth = "keep-both"

        var choice: FileOperation.ConflictChoice {
            switch self {
            case .skip: return .skip
            case .overwrite: return .overwrite
            case .keepBoth: return .keepBoth
            }
        }
    }

    /// What copy and move both take.
    struct TransferOptions: ParsableArguments {
        @Option(help: "When a name is taken in FOLDER: skip, overwrite or keep-both.") var onClash: Clash = .skip
        @Flag(help: "Print progress to standard error.") var progress = false
        @Flag(help: "Read every copy back and compare it with its original before putting it in place.") var verify = false
        @Flag(help: "Moving from a server reached by plain SFTP (which has no trash): delete each original for good once its copy is in place and its sizes check (without this, such a move is refused).") var deleteSources = false
        @Argument(help: "Files or folders, then the destination folder; ssh://[user@]host[:port]/path or host:path for one on another machine (a move between machines trashes each original once its copy is in place).") var paths: [String]
    }

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "copy", abstract: "Copy files and folders into FOLDER.")
        @OptionGroup var options: TransferOptions
        func run() throws { try FileCommand.transfer(.copy, options) }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move files and folders into FOLDER (a rename on one volume; across volumes a copy, flushed to disk, then the original removed).")
        @OptionGroup var options: TransferOptions
        func run() throws { try FileCommand.transfer(.move, options) }
    }

    struct Trash: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "trash", abstract: "Move files to the freedesktop trash (other file managers see and restore them).")
        @Argument(help: "Files or folders.") var paths: [String]
        func run() throws {
            let (operands, refused) = FileCommand.removable(paths)
            let sources = operands.map(PathNormalizer.absolute)
            let cache = ThumbnailCache(), place = LocalPlace()
            let operation = FileOperation(kind: .trash, sources: sources, destination: nil)
            let report = try FileCommand.perform(operation, in: place, events: FileOperationEvents(resolve: { _ in (.skip, true) },
                                                                                                   removed: { cache.removeThumbnails(for: $0) }))
            try FileCommand.finish(report, refused: refused)
        }
    }

    static func transfer(_ kind: FileOperation.Kind, _ options: TransferOptions) throws {
        let paths = options.paths, clash = options.onClash, progress = options.progress
        guard paths.count >= 2 else { throw ValidationError("give at least one file and the destination folder") }
        // A move removes its sources: `.`, `..` and `/` are refused as rm refuses them.
        let (operands, refused) = kind == .move ? removable(Array(paths.dropLast())) : (Array(paths.dropLast()), 0)
        if let report = try RemoteFileCopy.run(kind, sources: operands, destination: paths.last!, clash: clash.choice,
                                               progress: progress, verify: options.verify,
                                               deletesSourcesForGood: options.deleteSources) {
            return try finish(report, refused: refused)
        }
        let sources = operands.map(PathNormalizer.absolute), destination = PathNormalizer.absolute(paths.last!)
        let place = LocalPlace()
        let item: PlaceItem, capabilities: VolumeCapabilities
        do throws(FileSystemError) {
            item = try PlaceCall.wait { () throws(FileSystemError) in try await place.item(at: destination) }
        } catch {
            throw RuntimeError("the destination folder \(TerminalText.escaped(destination)) cannot be used: \(String(cString: strerror(error.errno)))")
        }
        guard item.isDirectory else { throw RuntimeError("\(TerminalText.escaped(destination)) is not a folder (the last name given is where the files go)") }
        let operation = FileOperation(kind: kind, sources: sources, destination: destination, verifiesContent: options.verify)
        do throws(FileSystemError) {
            capabilities = try PlaceCall.wait { () throws(FileSystemError) in try await place.capabilities(of: destination, trial: true) }
        } catch {
            throw RuntimeError("the destination folder \(TerminalText.escaped(destination)) cannot be used: \(error.message)")
        }
        if let problem = operation.problem(destinationCapabilities: capabilities) {
            StandardStream.write("qlbrowse: \(TerminalText.escaped(problem)); nothing was written\n", to: 2)
            throw ExitCode(1)
        }
        let cache = ThumbnailCache()
        let report = try perform(operation, in: place, events: FileOperationEvents(resolve: { _ in (clash.choice, true) }, progress: { state in
            guard progress, state.bytesTotal > 0 else { return }
            StandardStream.write("\r\(state.bytesDone * 100 / state.bytesTotal)% \(state.bytesDone)/\(state.bytesTotal) bytes", to: 2)
        }, moved: { cache.moveThumbnails(from: $0, to: $1) }, removed: { cache.removeThumbnails(for: $0) }))
        if progress { StandardStream.write("\n", to: 2) }
        try finish(report, refused: refused)
    }

    /// Runs `operation` in `place` and waits for its report; a place that stops answering is an error.
    static func perform(_ operation: FileOperation, in place: any Place, events: FileOperationEvents) throws -> FileOperation.Report {
        do throws(FileSystemError) {
            return try PlaceCall.wait { () throws(FileSystemError) in try await place.perform(operation, events: events) }
        } catch {
            throw RuntimeError("\(error.path.isEmpty ? "the volume" : TerminalText.escaped(error.path)) is not responding: \(error.context ?? "nothing was done")")
        }
    }

    /// The operands a command that removes or moves them may act on, and how many were refused
    /// (each named on standard error in rm's words): a path ending in `.` or `..` names the folder
    /// the user stands in or its parent, never what they meant to throw away, and `/` is everything.
    static func removable(_ operands: [String]) -> (kept: [String], refused: Int) {
        var kept: [String] = [], refused = 0
        for operand in operands {
            if let refusal = FileOperation.refusalToRemove(operand) {
                StandardStream.write("qlbrowse: \(refusal)\n", to: 2)
                refused += 1
            } else {
                kept.append(operand)
            }
        }
        return (kept, refused)
    }

    static func finish(_ report: FileOperation.Report, refused: Int = 0) throws {
        for failure in report.failures { StandardStream.write("qlbrowse: \(TerminalText.escaped(failure))\n", to: 2) }
        for path in report.skipped { StandardStream.write("qlbrowse: skipped \(TerminalText.escaped(path)): the name is taken\n", to: 2) }
        StandardStream.write("\(report.summary)" + (refused > 0 ? ", \(refused) refused" : "") + "\n", to: 2)
        if !report.notDone.isEmpty || refused > 0 { throw ExitCode(1) }
    }
}
