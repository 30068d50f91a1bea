import ArgumentParser
import SystemKit

/// The command lines other programs repeat many times — `qlbrowse thumbnail …` per file,
/// `qlbrowse preview FILE` per cursor move in lf or fzf, `qlbrowse FOLDER` — read without the
/// full argument parser: its reflection over every command and option was two thirds of a short
/// call's instructions (callgrind: 16.5 M of 27 M for one cached thumbnail). What these readers
/// cannot read for certain goes to the full parser, so help, errors and every other form are its.
enum QuickCommandLine {
    /// The command `arguments` (without the program name) asks for, read quickly, or nil.
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let first = arguments.first else { return BrowseCommand.quick([]) }
        let rest = Array(arguments.dropFirst())
        let command: (any ParsableCommand)?
        switch first {
        case ThumbnailCommand._commandName: command = ThumbnailCommand.quick(rest)
        case PreviewCommand._commandName: command = PreviewCommand.quick(rest)
        case BrowseCommand._commandName: command = BrowseCommand.quick(rest)
        case _ where isCommandName(first): command = nil
        default: command = BrowseCommand.quick(arguments)  // the default command, as the full parser has it
        }
        // A line the command refuses goes to the full parser, which refuses it in its own words.
        guard var command, (try? command.validate()) != nil else { return nil }
        return command
    }

    /// Whether `name` names a command (or the parser's own `help`), so it is not a folder to open.
    static func isCommandName(_ name: String) -> Bool {
        name == "help" || QLBrowse.configuration.subcommands.contains { $0._commandName == name }
    }

    /// For the tests (`QLBROWSE_CHECK_QUICK_ARGUMENTS=1`): prints what the quick reading and the
    /// full parser make of `arguments`, so a test can require them to be the same command.
    static func printComparison(_ arguments: [String]) {
        let quick = command(arguments).map { String(reflecting: $0) } ?? "none"
        let full: String
        do { full = String(reflecting: try QLBrowse.parseAsRoot(arguments)) } catch { full = "refused" }
        print("quick: \(quick)\nfull: \(full)")
    }
}
