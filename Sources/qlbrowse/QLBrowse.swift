import ArgumentParser
import SystemKit

/// The `qlbrowse` command: the browser (default) and the engine's command-line front ends.
@main
struct QLBrowse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qlbrowse",
        abstract: "A terminal file browser with inline thumbnails, and the thumbnail engine behind it.",
        version: BuildInfo.versionLine,
        subcommands: [BrowseCommand.self, ThumbnailCommand.self, PreviewCommand.self, CacheCommand.self, TypesCommand.self, FileCommand.self, EditCommand.self, FindCommand.self, ServiceCommand.self, DBusCommand.self],
        defaultSubcommand: BrowseCommand.self)

    /// Parses the arguments as their bytes (`ProcessArguments`), not as repaired text.
    static func main() async {
        await main(Array(ProcessArguments.all.dropFirst()))
    }
}
