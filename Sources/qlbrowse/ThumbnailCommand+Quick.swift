import ArgumentParser
import SystemKit

extension ThumbnailCommand {
    /// The options `QuickArguments` reads for `thumbnail`: all of them.
    static let quickOptions: [QuickArguments.Option] = [
        .flag("recursive", short: "r"), .flag("force"), .flag("shared"), .value("shard"), .flag("no-cache"),
        .value("size", short: "s"), .value("scale"), .value("type", short: "t"), .value("output", short: "o"),
        .value("format"), .flag("progressive"), .flag("json"), .value("jobs"), .value("timeout"), .flag("no-service"),
    ]

    /// `thumbnail`'s arguments read without the full parser, or nil where only it can read them
    /// (a value it would refuse included: its own message says what is wrong).
    static func quick(_ arguments: [String]) -> ThumbnailCommand? {
        guard let given = QuickArguments(arguments, options: quickOptions), !given.operands.isEmpty else { return nil }
        var command = ThumbnailCommand()
        command.files = given.operands
        command.recursive = given.has("recursive")
        command.force = given.has("force")
        command.shared = given.has("shared")
        command.shard = given.value("shard")
        command.noCache = given.has("no-cache")
        command.progressive = given.has("progressive")
        command.json = given.has("json")
        command.noService = given.has("no-service")
        command.output = given.value("output") ?? defaultOutput
        guard let size = QuickArguments.read(given.value("size"), or: defaultSize),
              let scale = QuickArguments.read(given.value("scale"), or: defaultScale),
              let type = QuickArguments.read(given.value("type"), or: RepresentationChoice.all),
              let format = QuickArguments.read(given.value("format"), or: ImageFormatChoice.png),
              let jobs = QuickArguments.read(given.value("jobs"), or: defaultJobs),
              let timeout = QuickArguments.read(given.value("timeout"), or: defaultTimeout) else { return nil }
        command.size = size
        command.scale = scale
        command.type = type
        command.format = format
        command.jobs = jobs
        command.timeout = timeout
        return command
    }
}

extension QuickArguments {
    /// `text` read as the full parser reads it (`ExpressibleByArgument`), `fallback` when absent,
    /// nil when it cannot be read (the full parser then says why).
    static func read<Value: ExpressibleByArgument>(_ text: String?, or fallback: Value) -> Value? {
        guard let text else { return fallback }
        return Value(argument: text)
    }
}
