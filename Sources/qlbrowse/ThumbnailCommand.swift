import ArgumentParser
import Places
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse thumbnail FILE…`: the engine from the command line, like macOS `qlmanage -t`.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ThumbnailCall.commandName,
        abstract: "Make thumbnails of files (like macOS qlmanage -t).",
        discussion: """
            Writes one image per file into the output folder, named after the file (photo.jpg → photo.jpg.png), \
            fitting a SIZE×SIZE box times the scale with the aspect ratio kept and the EXIF orientation applied. \
            Prints one line per file: file, content type, representation, source, pixel size, milliseconds. \
            A file that cannot be read or decoded gets a one-line error; the others are still done, and the \
            exit status is 1.
            """)


    @Argument(help: "Files to make thumbnails of (folders, with -r).")
    var files: [String]

    @Flag(name: [.customShort("r"), .long], help: "Walk the given folders and thumbnail every file into the shared cache (no -o output).")
    var recursive = false

    @Flag(help: "Regenerate even when a valid cached thumbnail (or a remembered failure) exists.")
    var force = false

    @Flag(help: "Also write the .sh_thumbnails repository beside the files (for USB sticks and network shares).")
    var shared = false

    @Option(help: ArgumentHelp("Process only share I of N (1…N) of the files, so several machines can split a library.", valueName: "I/N"))
    var shard: String?

    @Flag(help: "Neither read nor write the thumbnail cache.")
    var noCache = false

    @Option(name: .shortAndLong, parsing: .unconditional, help: "Side of the box the thumbnail fits, in points.")
    var size: Int = ThumbnailCall.defaultSize

    @Option(parsing: .unconditional, help: "Pixels per point (2 for HiDPI).")
    var scale: Double = ThumbnailCall.defaultScale

    @Option(name: [.customShort("t"), .customLong("type")], help: "Which representations: icon, low, thumbnail or all (best one is written).")
    var type: RepresentationChoice = .all

    @Option(name: .shortAndLong, help: "Folder to write the images into.")
    var output: String = ThumbnailCall.defaultOutput

    @Option(help: "Image format to write: png or jpeg.")
    var format: ImageFormatChoice = .png

    @Flag(help: "Print every representation as it arrives (icon, low quality, thumbnail).")
    var progressive = false

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    @Option(parsing: .unconditional, help: "Worker processes decoding in parallel (default: one per core).")
    var jobs: Int = ThumbnailCall.defaultJobs

    @Option(parsing: .unconditional, help: "Seconds one file may take before its decoder is stopped (or its look-up, on a volume that does not answer).")
    var timeout: Double = ThumbnailCall.defaultTimeout

    @Flag(help: "Decode in workers of this call's own, not in the resident thumbnail service (also: service = false in config.toml).")
    var noService = false

    func validate() throws { try call.validate() }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let config = UserConfig.load()
        for problem in config.problems { StandardStream.write("qlbrowse: \(problem)\n", to: 2) }
        if !recursive {
            // -o names a folder: say what is wrong with the one given, not always "does not exist".
            let shown = TerminalText.escaped(output)
            let folder: PlaceItem
            do throws(FileSystemError) {
                folder = try await LocalPlace().item(at: output)
            } catch {
                throw RuntimeError(error.errno == ENOENT ? "the output folder \(shown) does not exist (-o takes a folder)"
                                                         : "cannot use the output folder \(shown): \(String(cString: strerror(error.errno)))")
            }
            guard folder.isDirectory else { throw RuntimeError("\(shown) is a file, not a folder (-o takes the folder to write the images into)") }
            guard access(output, W_OK) == 0 else { throw RuntimeError("cannot write into the output folder \(shown): \(String(cString: strerror(errno)))") }
        }
        var limits = WorkerLimits.standard
        limits.deadlineSeconds = timeout
        let poolSize = min(jobs, max(1, recursive ? jobs : files.count))
        let ownPool: @Sendable () -> WorkerPool = { [limits] in WorkerPool(size: poolSize, limits: limits, stderrPath: ProcessEnvironment.workerLog) }
        // A folder batch starts its workers once for many files and keeps --jobs to itself; single
        // calls go to the resident service, whose workers are already running.
        let pool = recursive ? ownPool() : WorkerChoice.backend(noService: noService, config: config, limits: limits, ownPool: ownPool)
        // No warm-up: workers start (or the service is reached) with the first request that needs
        // decoding, so cache hits and icons start none. The pool is shut down (workers reaped, the
        // connection closed) on every way out.
        if recursive {
            // The place does the batch for its files (on a remote place, where the files are), with this call's workers.
            let place = LocalPlace(batchWorkers: pool)
            let options = BatchOptions(box: ThumbnailGeometry.pixelBox(size: Double(size), scale: scale), jobs: jobs,
                                       shard: shard.flatMap(ThumbnailBatch.Shard.init), writesShared: shared, ignoresStored: force)
            let summary = await BatchRunner(json: json) { place.thumbnailFolders($0, options: options) }.run(files)
            await pool.shutdown(waitSeconds: 2)
            if summary.interrupted { throw ExitCode(130) }
            if summary.failed > 0 || summary.stopReason != nil || !summary.skippedFolders.isEmpty { throw ExitCode(1) }
            return
        }
        let cache = noCache ? nil : ThumbnailCache(writesShared: shared, ignoresStored: force)
        let generator = ThumbnailGenerator(workers: pool, cache: cache, lookupDeadline: timeout)
        let reporter = ThumbnailReporter(json: json)
        let names = OutputNames(folder: output, format: format.imageFormat)
        let outputPaths = files.map { names.path(for: $0) }
        // Twice as many files in flight as workers: while this process encodes and writes one
        // file's result, the worker already decodes the next instead of waiting for it.
        let width = jobs * 2
        let failures = await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var failed = 0
            func start() {
                let index = next
                next += 1
                group.addTask { await self.make(index: index, path: outputPaths[index], generator: generator, reporter: reporter) }
            }
            while next < files.count && next < width { start() }
            for await ok in group {
                if !ok { failed += 1 }
                if next < files.count { start() }
            }
            return failed
        }
        await pool.shutdown(waitSeconds: 2)
        if failures > 0 { throw ExitCode(1) }
    }

    /// Makes one file's thumbnail and reports it; false when it failed.
    private func make(index: Int, path outputPath: String, generator: ThumbnailGenerator, reporter: ThumbnailReporter) async -> Bool {
        let file = files[index]
        let call = self.call
        let request = call.request(for: file)
        let types = request.types
        let clock = ContinuousClock()
        let start = clock.now
        var best: Representation?
        // The highest type asked for ends the stream: with --progressive it is written before its
        // line is printed, so that line carries `output` like the others carry the picture.
        let highest = types.max()
        func write(_ representation: Representation) throws { try call.write(representation, to: outputPath) }
        do {
            for try await representation in generator.representations(for: request) {
                best = representation
                if progressive {
                    if representation.type == highest { try write(representation) }
                    await reporter.report(file: file, representation: representation, elapsed: clock.now - start,
                                          output: representation.type == highest ? outputPath : nil)
                }
            }
            guard let best else { throw ThumbnailError(.noPreview, "no picture could be made") }
            let writtenOnArrival = progressive && best.type == highest
            if !writtenOnArrival { try write(best) }
            if !progressive {
                await reporter.report(file: file, representation: best, elapsed: clock.now - start, output: outputPath)
            } else if !writtenOnArrival {
                await reporter.wrote(file: file, output: outputPath)
            }
            // The picture was written, but the cache did not keep it: the next call makes it again.
            if let notStored = best.notStored {
                await reporter.fail(file: file, error: ThumbnailError(.writeFailed, "made, but not stored in the cache: \(notStored.reason)"))
                return false
            }
            return true
        } catch {
            var failure = error as? ThumbnailError ?? ThumbnailError(.corrupt, String(describing: error))
            // A folder's decode is refused as unsupported (a file that could not be reached is not asked again).
            if failure.code == .unsupported, !types.contains(.icon), (try? await LocalPlace().item(at: file))?.isDirectory == true {
                failure = ThumbnailError(.unsupported, "is a folder; use -r to thumbnail the files inside it")
            }
            await reporter.fail(file: file, error: failure.retryHint("--force retries"))
            return false
        }
    }
}

/// `-t` values.
enum RepresentationChoice: String, ExpressibleByArgument, CaseIterable {
    case icon, low, thumbnail, all

    var types: Set<RepresentationType> {
        switch self {
        case .icon: return [.icon]
        case .low: return [.lowQuality]
        case .thumbnail: return [.thumbnail]
        case .all: return [.icon, .lowQuality, .thumbnail]
        }
    }
}

/// `--format` values.
enum ImageFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case png, jpeg, jpg

    var imageFormat: ImageFormat { self == .png ? .png : .jpeg }
}
