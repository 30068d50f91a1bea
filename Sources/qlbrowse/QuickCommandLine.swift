import ArgumentParser
import SystemKit

/// The command lines other programs repeat many times — `qlbrowse thumbnail …` per file,
/// `qlbrowse preview FILE` per cursor move in lf or fzf, `qlbrowse FOLDER` — read without the
/// full argument parser: its reflection over every command and option was two thirds of a short
/// call's instructions (callgrind: 16.5 M of 27 M for one cached thumbnail). What these readers
/// cannot read for certain goes to the full parser, so help, errors and every other form are its.
enum QuickCommandLine {
    /// The command `arguments` (without the program name) asks for, read quickly, or nil.
    static func command(_ arguments: [String]) -> Quick? {
        guard let first = arguments.first else { return BrowseCommand.quick([]).map(Quick.browse)?.validated }
        let rest = Array(arguments.dropFirst())
        let command: Quick?
        switch first {
        case ThumbnailCall.commandName: command = ThumbnailCall.quick(rest).map(Quick.thumbnail)
        case PreviewCommand._commandName: command = PreviewCommand.quick(rest).map(Quick.preview)
        case BrowseCommand._commandName: command = BrowseCommand.quick(rest).map(Quick.browse)
        case _ where isCommandName(first): command = nil
        default: command = BrowseCommand.quick(arguments).map(Quick.browse)  // the default command, as the full parser has it
        }
        return command?.validated
    }

    /// A command read quickly, by its type: running it needs no dynamic cast to
    /// `AsyncParsableCommand`, whose conformance search over the whole program was 6 % of a
    /// cached `thumbnail` call's instructions (issue #27).
    enum Quick {
        /// A `thumbnail` line as plain values: a call the cache answers whole is answered from them
        /// before anything starts (`ThumbnailCall.answeredFromCache`), without the parser's command.
        case thumbnail(ThumbnailCall)
        case preview(PreviewCommand)
        case browse(BrowseCommand)

        var parsed: any ParsableCommand {
            switch self {
            case .thumbnail(let call): ThumbnailCommand(call)
            case .preview(let command): command
            case .browse(let command): command
            }
        }

        /// Self, or nil when the command refuses its line: the full parser then refuses it in its own words.
        var validated: Quick? {
            if case .thumbnail(let call) = self { return (try? call.validate()) != nil ? self : nil }
            var command = parsed
            return (try? command.validate()) != nil ? self : nil
        }

        func run() async throws {
            switch self {
            case .thumbnail(let call):
                var command = ThumbnailCommand(call)
                try await command.run()
            case .preview(var command): try await command.run()
            case .browse(var command): try command.run()
            }
        }
    }

    /// Whether `name` names a command (or the parser's own `help`), so it is not a folder to open.
    static func isCommandName(_ name: String) -> Bool {
        name == "help" || QLBrowse.configuration.subcommands.contains { $0._commandName == name }
    }

    /// For the tests (`QLBROWSE_CHECK_QUICK_ARGUMENTS=1`): prints what the quick reading and the
    /// full parser make of `arguments`, so a test can require them to be the same command.
    static func printComparison(_ arguments: [String]) {
        let quick = command(arguments).map { String(reflecting: $0.parsed) } ?? "none"
        let full: String
        do { full = String(reflecting: try QLBrowse.parseAsRoot(arguments)) } catch { full = "refused" }
        print("quick: \(quick)\nfull: \(full)")
    }
}
