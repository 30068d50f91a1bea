import ArgumentParser
import SystemKit
import ThumbnailKit

/// What a `qlbrowse thumbnail` line asks for, as plain values: `ThumbnailCommand` fills it from
/// the full parser, `quick(_:)` from the line alone. A call the cache answers whole is answered
/// from here (`answeredFromCache`), so it never builds the parser's command, whose property
/// wrappers were a tenth of such a call (issue #27).
struct ThumbnailCall {
    static let commandName = "thumbnail"
    static let defaultSize = 256, defaultScale = 1.0, defaultOutput = "."
    static var defaultJobs: Int { WorkerPool.coreCount }
    static var defaultTimeout: Double { WorkerLimits.standard.deadlineSeconds }

    var files: [String] = []
    var recursive = false
    var force = false
    var shared = false
    var shard: String?
    var noCache = false
    var size = defaultSize
    var scale = defaultScale
    var type = RepresentationChoice.all
    var output = defaultOutput
    var format = ImageFormatChoice.png
    var progressive = false
    var json = false
    var jobs = defaultJobs
    var timeout = defaultTimeout
    var noService = false

    /// The options `QuickArguments` reads for `thumbnail`: all of them.
    static let quickOptions: [QuickArguments.Option] = [
        .flag("recursive", short: "r"), .flag("force"), .flag("shared"), .value("shard"), .flag("no-cache"),
        .value("size", short: "s"), .value("scale"), .value("type", short: "t"), .value("output", short: "o"),
        .value("format"), .flag("progressive"), .flag("json"), .value("jobs"), .value("timeout"), .flag("no-service"),
    ]

    /// `thumbnail`'s arguments read without the full parser, or nil where only it can read them
    /// (a value it would refuse included: its own message says what is wrong).
    static func quick(_ arguments: [String]) -> ThumbnailCall? {
        guard let given = QuickArguments(arguments, options: quickOptions), !given.operands.isEmpty else { return nil }
        var call = ThumbnailCall()
        call.files = given.operands
        call.recursive = given.has("recursive")
        call.force = given.has("force")
        call.shared = given.has("shared")
        call.shard = given.value("shard")
        call.noCache = given.has("no-cache")
        call.progressive = given.has("progressive")
        call.json = given.has("json")
        call.noService = given.has("no-service")
        call.output = given.value("output") ?? defaultOutput
        guard let size = QuickArguments.read(given.value("size"), or: defaultSize),
              let scale = QuickArguments.read(given.value("scale"), or: defaultScale),
              let type = QuickArguments.read(given.value("type"), or: RepresentationChoice.all),
              let format = QuickArguments.read(given.value("format"), or: ImageFormatChoice.png),
              let jobs = QuickArguments.read(given.value("jobs"), or: defaultJobs),
              let timeout = QuickArguments.read(given.value("timeout"), or: defaultTimeout) else { return nil }
        call.size = size
        call.scale = scale
        call.type = type
        call.format = format
        call.jobs = jobs
        call.timeout = timeout
        return call
    }

    /// Refuses values out of range and options that do not go together.
    func validate() throws {
        guard size > 0, size <= 4096 else { throw ValidationError("--size must be between 1 and 4096") }
        guard scale > 0, scale <= 8 else { throw ValidationError("--scale must be between 0 and 8") }
        guard size * Int(scale.rounded(.up)) <= 8192 else { throw ValidationError("--size × --scale must be at most 8192 pixels") }
        guard jobs > 0, jobs <= 64 else { throw ValidationError("--jobs must be between 1 and 64") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout takes seconds, more than 0 and at most 86400 (a day)") }
        if let shard, ThumbnailBatch.Shard(shard) == nil { throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N, e.g. 2/4") }
        if shard != nil && !recursive { throw ValidationError("--shard goes with -r") }
        if noCache && recursive { throw ValidationError("-r thumbnails into the cache; it cannot go with --no-cache") }
    }

    /// What `file` is asked for with this call's options.
    func request(for file: String) -> ThumbnailRequest {
        // Without --progressive only the best picture is written: do not make the ones on the way to it.
        let types = progressive || type != .all ? type.types : [.thumbnail]
        var request = ThumbnailRequest(path: file, size: Double(size), scale: scale, types: types)
        request.wantsFacts = json
        // A cached PNG is written as it is: its pixels need not be decoded.
        request.onlySavesPNG = format.imageFormat == .png && !progressive
        return request
    }

    /// Writes `representation` to `path` in the format asked for (a PNG as it came, when it came encoded).
    func write(_ representation: Representation, to path: String) throws {
        let bytes = format.imageFormat == .png ? representation.encodedPNG ?? ImageFormat.png.encode(representation.image)
                                               : format.imageFormat.encode(representation.image)
        try AtomicFileWriter.write(bytes, to: path)
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
