import ArgumentParser
import Places
import SystemKit
import ThumbnailKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `qlbrowse edit`: Quick Look's lossless quick edits for scripts. The edit runs in a worker
/// process; the original goes to the Trash (restorable there, or with `U` in the browser) unless
/// `--copy` keeps it and writes "name (edited).ext" beside it.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Turn and crop pictures, turn PDF pages, trim and turn videos and songs, without loss; mark up PDFs and pictures.",
        discussion: """
        Each edit writes a new file in the same folder, flushed to the disk, then renames it into place: \
        the original goes to the freedesktop Trash, or stays untouched with --copy (the result is then \
        "NAME (edited).EXT"). A file changed by someone else meanwhile is not replaced.
        """,
        subcommands: [Rotate.self, Crop.self, RotatePages.self, Trim.self, RotateVideo.self, Annotate.self])

    struct Saving: ParsableArguments {
        @Flag(help: "Keep the original; write the result as \"NAME (edited).EXT\" beside it.") var copy = false
        @Flag(help: "Give the result the original's modification time.") var keepTime = false
        @Flag(help: "Print one JSON object per file (path, output, edit, trashed, notes…).") var json = false
    }

    struct Turn: ParsableArguments {
        @Flag(help: "A quarter turn clockwise.") var right = false
        @Flag(help: "A quarter turn counterclockwise.") var left = false
        @Flag(name: .customLong("180"), help: "A half turn.") var half = false

        func quarterTurns(flip: Bool = false) throws -> Int {
            let chosen = [right, left, half].filter { $0 }.count
            guard chosen == 1 || (chosen == 0 && flip) else { throw ValidationError("say one of --right, --left or --180") }
            return right ? 1 : left ? 3 : half ? 2 : 0
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rotate", abstract: "Turn or mirror pictures (JPEG losslessly in the DCT domain; PNG, WebP, TIFF, HEIC re-encoded without loss).")
        @OptionGroup var turn: Turn
        @Flag(help: "Mirror left to right (before the turn, if any).") var flip = false
        @OptionGroup var saving: Saving
        @Argument(help: "Pictures.") var files: [String]
        func validate() throws { _ = try turn.quarterTurns(flip: flip) }
        func run() async throws {
            let edit = FileEdit.rotate(quarterTurns: try turn.quarterTurns(flip: flip), flip: flip)
            try await EditCommand.run(edit, on: files, saving)
        }
    }

    struct Crop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "crop", abstract: "Keep a rectangle of a picture (JPEG in the DCT domain; PNG, WebP, TIFF re-encoded without loss).",
            discussion: """
            The rectangle is in pixels of the picture as shown (EXIF orientation applied). A JPEG is cut on its \
            8 or 16 pixel block grid without being encoded again: the rectangle grows out to the grid \
            and the output says which rectangle was kept. HEIC and AVIF can only be written again with loss: \
            they are refused unless --allow-lossy.
            """)
        @Option(help: "The rectangle to keep: WIDTHxHEIGHT+LEFT+TOP, e.g. 1200x800+100+50.") var rect: String
        @Flag(help: "Allow a HEIC or AVIF picture to be encoded again with loss (quality 90).") var allowLossy = false
        @OptionGroup var saving: Saving
        @Argument(help: "Pictures.") var files: [String]
        func validate() throws {
            guard PixelRect(geometry: rect) != nil else { throw ValidationError("\(rect) is not a rectangle WIDTHxHEIGHT+LEFT+TOP such as 1200x800+100+50") }
        }
        func run() async throws {
            guard let area = PixelRect(geometry: rect) else { throw ValidationError("\(rect) is not a rectangle WIDTHxHEIGHT+LEFT+TOP") }
            if !allowLossy, let lossy = files.first(where: { EditCommand.needsLossyCrop($0) }) {
                FileDescriptorWriter.writeAll(Array("qlbrowse edit: \(TerminalText.escaped(lossy)): HEIC and AVIF cannot be cropped without encoding the picture again, which loses some quality; nothing was written (--allow-lossy does it)\n".utf8), to: 2)
                throw ExitCode(1)
            }
            try await EditCommand.run(.crop(area, allowLossy: allowLossy), on: files, saving)
        }
    }

    /// HEIC and AVIF: a crop writes them again with loss.
    static func needsLossyCrop(_ path: String) -> Bool {
        ["heic", "heif", "avif"].contains(path.split(separator: ".").last.map { $0.lowercased() } ?? "")
    }

    struct RotatePages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rotate-pages", abstract: "Turn PDF pages by their rotation entry (nothing is rendered again).")
        @OptionGroup var turn: Turn
        @Option(help: "Pages, counted from 1: \"2\", \"2-5\", \"1,3,7-9\" (all when not given).") var pages: String?
        @OptionGroup var saving: Saving
        @Argument(help: "A PDF.") var file: String
        func validate() throws {
            _ = try pages.map(EditCommand.pageList)
            _ = try turn.quarterTurns()
        }
        func run() async throws {
            let chosen = try pages.map(EditCommand.pageList) ?? []
            try await EditCommand.run(.rotatePages(pages: chosen, quarterTurns: try turn.quarterTurns()), on: [file], saving)
        }
    }

    struct Trim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "trim", abstract: "Keep part of a video or song, streams copied (the start snaps back to a keyframe).")
        @Option(parsing: .unconditional, help: "Start: seconds or [H:]M:S (0 when not given).") var start: String?
        @Option(parsing: .unconditional, help: "End: seconds or [H:]M:S.") var end: String
        @OptionGroup var saving: Saving
        @Argument(help: "A video or song.") var file: String
        /// Times are checked here, so that a mistake in them prints this command's usage.
        func validate() throws {
            let from = try start.map(EditCommand.seconds) ?? 0, to = try EditCommand.seconds(end)
            guard to > from else { throw ValidationError("--end must come after --start") }
        }
        func run() async throws {
            let from = try start.map(EditCommand.seconds) ?? 0, to = try EditCommand.seconds(end)
            guard to > from else { throw ValidationError("--end must come after --start") }
            try await EditCommand.run(.trim(start: from, end: to), on: [file], saving)
        }
    }

    struct RotateVideo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rotate-video", abstract: "Turn a video by its display matrix (MP4, MOV; no re-encoding).")
        @OptionGroup var turn: Turn
        @OptionGroup var saving: Saving
        @Argument(help: "Videos.") var files: [String]
        func validate() throws { _ = try turn.quarterTurns() }
        func run() async throws {
            try await EditCommand.run(.rotateVideo(quarterTurns: try turn.quarterTurns()), on: files, saving)
        }
    }

    /// Edits each file in turn; a failure is reported and the others still go.
    static func run(_ edit: FileEdit, on files: [String], _ saving: Saving) async throws {
        let pool = WorkerPool(size: 1, limits: EditSaver.workerLimits, stderrPath: ProcessEnvironment.workerLog)
        let saver = EditSaver(placement: saving.copy ? .copy : .replace, keepsModificationTime: saving.keepTime, generator: PreviewGenerator(pool: pool))
        var failed = 0
        for file in files {
            let path = PathNormalizer.absolute(file)
            do {
                let outcome = try await saver.apply([edit], to: path)
                print(saving.json ? json(outcome) : describe(outcome))
            } catch {
                failed += 1
                let reason = (error as? ThumbnailError)?.reason ?? "\(error)"
                FileDescriptorWriter.writeAll(Array("qlbrowse edit: \(TerminalText.escaped(path)): \(reason)\n".utf8), to: 2)
            }
        }
        await pool.shutdown()
        if failed > 0 { throw ExitCode(1) }
    }

    private static func describe(_ outcome: EditSaver.Outcome) -> String {
        var words = ["\(outcome.edit): \(TerminalText.escaped(outcome.output))"]
        if let trashed = outcome.trashed { words.append("the original is in the Trash (\(TerminalText.escaped(trashed)))") }
        return (words + outcome.details).joined(separator: " · ")
    }

    private static func json(_ outcome: EditSaver.Outcome) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(outcome)).map { FileSystemBytes.jsonForOtherPrograms(String(decoding: $0, as: UTF8.self)) } ?? "{}"
    }

    /// "90", "1:30", "1:02:03.5" as seconds.
    static func seconds(_ text: String) throws -> Double {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else { throw ValidationError("\(text) is not a time (seconds, or [H:]M:S)") }
        let seconds = parts.reduce(0) { $0 * 60 + $1! }
        // A trim past the end keeps the rest of the file; beyond a million hours is a typing slip.
        guard seconds <= 3.6e9 else { throw ValidationError("\(text) is longer than any recording (at most 1000000 hours)") }
        return seconds
    }

    /// "1,3,7-9" (counted from 1) as 0-based page numbers.
    static func pageList(_ text: String) throws -> [Int] {
        var pages: [Int] = []
        for part in text.split(separator: ",") {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { Int(String($0.filter { !$0.isWhitespace })) }
            guard (1...2).contains(ends.count), let first = ends.first ?? nil, let last = ends.last ?? nil, first >= 1, last >= first, last - first < 100_000 else {
                throw ValidationError("\(text) is not a list of pages such as 2 or 2-5 or 1,3,7-9")
            }
            pages += (first...last).map { $0 - 1 }
        }
        return pages
    }
}
