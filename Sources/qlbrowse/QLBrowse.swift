import ArgumentParser
import Dispatch
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
    static func runAsMain() async {
        let arguments = Array(ProcessArguments.all.dropFirst())
        if ProcessEnvironment.variable("QLBROWSE_CHECK_QUICK_ARGUMENTS") == "1" { return QuickCommandLine.printComparison(arguments) }
        do {
            var command: any ParsableCommand
            if let quick = QuickCommandLine.command(arguments) { command = quick } else { command = try await asyncParseAsRoot(arguments) }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
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

/// The program's entry: `QLBrowse.runAsMain` as a task, the main thread waiting for it and then
/// exiting the process. Swift's own asynchronous `main` hands the main thread to libdispatch,
/// whose `dispatch_main` ends it with `pthread_exit`: every short call then loaded libgcc_s and
/// unwound the main thread's stack through the unwind tables (issue #27, a short call's fixed
/// cost). Nothing here runs on the main actor or the main queue, so the main thread can wait.
@main
enum Entry {
    static func main() {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await QLBrowse.runAsMain()
            finished.signal()
        }
        finished.wait()
        Glibc.exit(0)
    }
}
