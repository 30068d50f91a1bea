import ArgumentParser
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The `qlbrowse` command: the browser (default) and the engine's command-line front ends.
struct QLBrowse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qlbrowse",
        abstract: "A terminal file browser with inline thumbnails, and the thumbnail engine behind it.",
        version: BuildInfo.versionLine,
        subcommands: [BrowseCommand.self, ThumbnailCommand.self, PreviewCommand.self, CacheCommand.self, TypesCommand.self, FileCommand.self, EditCommand.self, FindCommand.self, ServiceCommand.self, DBusCommand.self,
                      VolumesCommand.self, ConnectCommand.self, DisconnectCommand.self, ServeCommand.self],
        defaultSubcommand: BrowseCommand.self)

    /// The parser's own `main`, with two differences: the arguments are parsed as their bytes
    /// (`ProcessArguments`), not as repaired text; and a `RuntimeError` is printed as a plain
    /// sentence and exits 1, without the usage text (which is for mistakes in the command line).
    /// `quick`: what `QuickCommandLine` already read of `arguments`.
    static func runAsMain(arguments: [String], quick: QuickCommandLine.Quick?) async {
        if ProcessEnvironment.variable("QLBROWSE_CHECK_QUICK_ARGUMENTS") == "1" { return QuickCommandLine.printComparison(arguments) }
        do {
            if let quick {
                try await quick.run()
            } else {
                var command = try await asyncParseAsRoot(arguments)
                if var asyncCommand = command as? AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
        } catch let error as RuntimeError {
            StandardStream.write("qlbrowse: \(error.message)\n", to: 2)
            Glibc.exit(1)
        } catch let code as ExitCode {
            // The parser's own exit would build its help text first (a third of a short call).
            Glibc.exit(code.rawValue)
        } catch {
            Self.exit(withError: error)
        }
    }
}
