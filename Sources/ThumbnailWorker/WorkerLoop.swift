import Dispatch
import Editors
import Providers
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The `qlbrowse-thumbnailer` process: reads requests from standard input, decodes on one thread,
/// writes pictures to standard output. Cancel messages are read while a decode runs and stop it.
public enum WorkerLoop {
    /// Runs until standard input closes. `arguments` are the process's own (without argv[0]).
    public static func run(arguments: [String]) -> Never {
        if arguments.first == "--list-types" {
            // For `qlbrowse types`: one line per type, tab-separated, then leave.
            var text = ""
            for row in ProviderCatalog.rows() { text += "\(row.type)\t\(row.provider)\t\(row.origin)\n" }
            // Previewers: five columns, the first three as above (type, name, file), then the
            // output and whether it wins over the built-in view; older readers skip these lines.
            for row in ProviderCatalog.previewerRows() {
                text += "\(row.type)\t\(row.previewer)\t\(row.origin)\t\(row.output)\t\(row.overridesBuiltIn ? "override" : "fallback")\n"
            }
            FileDescriptorWriter.writeAll(Array(text.utf8), to: 1)
            exit(0)
        }
        if arguments.first == "--lazy-libraries" {
            // For the package's Depends: the libraries opened at first use, not linked.
            print((LazyLibraries.files + EditorLibraries.files).joined(separator: "\n"))
            exit(0)
        }
        if arguments.first == "--in-process" {
            // For the benchmark of the worker's overhead: the same decoding and PNG encoding,
            // in this one process, without pipes or a pool. `--in-process SIZE FILE…`
            let side = arguments.dropFirst().first.flatMap(Int.init) ?? 256
            exit(InProcessRun.run(files: Array(arguments.dropFirst(2)), side: side))
        }
        let options = WorkerOptions(arguments: arguments)
        // No PR_SET_PDEATHSIG: it fires when the *thread* that spawned us exits, and the pool spawns
        // from whichever pool thread it runs on, so workers were killed mid-decode when that thread
        // retired. A dead parent closes our standard input instead, which ends the loop below.
        signal(SIGPIPE, SIG_IGN)
        ResourceLimits.limitAddressSpace(bytes: options.memoryBytes)
        // Each decoding thread would otherwise get its own 64 MiB malloc arena, and a few threads'
        // arenas eat the address-space limit before any picture does.
        MallocArenas.limit(to: 2)
        let decoder = Decoder(cpuSeconds: options.cpuSeconds, memoryBytes: options.memoryBytes)
        // A resident service's worker opens libvips (about 100 ms with its libraries) while it
        // waits for its first request: most pictures need it, and a desktop's first screen should
        // not wait for it. The first request that needs it waits for this one opening.
        if options.preloads { DetachedThread.start(stackSize: 1 << 20) { _ = try? VipsDecoder.start() } }
        let queue = DispatchQueue(label: "qlbrowse.decode")
        while true {
            let frame: WorkerFrame?
            do { frame = try FrameCodec.read(from: 0) } catch { frame = nil }
            guard let frame else { break }
            let id = frame.id
            do throws(WorkerCodecError) {
                switch try WorkerCodec.request(in: frame) {
                case (.cancel, _):
                    decoder.cancel(id)
                case (.hello, _):
                    break
                case (let request, let deadline):
                    decoder.accept(id)
                    queue.async { decoder.process(request, id: id, deadline: deadline) }
                }
            } catch {
                // A request of another build: a clear failure for it, written where replies are.
                queue.async { decoder.reply(decoder.failure(id, ThumbnailError(.unsupported, "malformed request: \(error)"), contentType: nil)) }
            }
        }
        // Standard input closed: finish what was accepted, then leave.
        queue.sync {}
        exit(0)
    }
}

/// Options the pool passes on the command line.
struct WorkerOptions {
    var memoryBytes = WorkerLimits.standard.memoryBytes
    var cpuSeconds = WorkerLimits.standard.cpuSeconds
    /// Opens libvips at once, beside the loop, rather than at the first picture that needs it.
    var preloads = false

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--memory-limit": memoryBytes = iterator.next().flatMap(Int.init) ?? memoryBytes
            case "--cpu-limit": cpuSeconds = iterator.next().flatMap(Int.init) ?? cpuSeconds
            case "--preload": preloads = true
            default: break
            }
        }
    }
}

/// The decoding side: providers and the sniffer live on the decode queue only.
final class Decoder: @unchecked Sendable {
    // Confined to the decode queue.
    let sniffer = ContentSniffer()
    private let providers = BuiltInProviders()
    /// The `.previewer` files, read once per worker (as the `.thumbnailer` files are).
    lazy var previewers = ExternalPreviewers()
    /// Keeps the last video open between frame requests (see `VideoFrameSeeker`).
    let frames = VideoFrameSeeker()
    private let cpuSeconds: Int
    private let memoryBytes: Int
    // Shared between the reader (main thread) and the decode queue.
    private let flags = Mutex<[UInt64: CancellationFlag]>([:])

    init(cpuSeconds: Int, memoryBytes: Int) {
        self.cpuSeconds = cpuSeconds
        self.memoryBytes = memoryBytes
        // libvips is started by its first use (`VipsDecoder` calls `start()`), not here: PDFs,
        // videos and baseline JPEGs never need it, and its start (its loader modules, their
        // libraries, ~8 ms) delayed the first answer of every new worker.
    }

    func accept(_ id: UInt64) {
        flags.withLock { $0[id] = CancellationFlag() }
    }

    func cancel(_ id: UInt64) {
        flags.withLock { $0[id] }?.cancel()
    }

    func process(_ request: WorkerRequest, id: UInt64, deadline: WorkerDeadline) {
        let flag = flags.withLock { $0[id] } ?? CancellationFlag()
        defer {
            _ = flags.withLock { $0.removeValue(forKey: id) }
            // A decode that left the address space half used (a near out-of-memory file, a
            // fragmented heap) would make the next file fail or stall: start afresh instead.
            if ResourceLimits.addressSpaceInUse() > memoryBytes / 2 { exit(0) }
        }
        guard !flag.isCancelled else {
            return reply(failure(id, ThumbnailError(.cancelled, "cancelled"), contentType: nil))
        }
        ResourceLimits.armCPULimit(seconds: cpuSeconds)
        // The file is opened first, non-blocking, and held while it is decoded: a FIFO, a device or
        // a socket (a link to /dev/zero named `.jpg`) is refused here at once instead of holding
        // a decoder until the deadline. A link the caller named is followed (see DECISIONS.md).
        var held: Int32 = -1
        if let path = request.path {
            do {
                held = try UntrustedFile.openRegular(path, links: .followed)
            } catch .refused(let kind) where kind != .folder {
                return reply(failure(id, ThumbnailError(.unsupported, kind.refusal), contentType: nil))
            } catch {
                // Missing or unreadable: the decoders say so in their own words, as before.
            }
        }
        defer { if held >= 0 { close(held) } }
        guard case .thumbnails(let thumbnails) = request else {
            return answerPreview(request, id: id, deadline: deadline, cancellation: flag)
        }
        let path = thumbnails.path, box = thumbnails.box
        guard box.width > 0, box.height > 0 else {
            return reply(failure(id, ThumbnailError(.unsupported, "malformed request"), contentType: nil))
        }
        let type = thumbnails.contentType ?? sniffer.contentType(ofFile: path)
        reply(WorkerCodec.frame(.contentType(type), id: id))

        let types = Set(thumbnails.types)
        let candidates = providers.providers(for: type, path: path)
        guard !candidates.isEmpty else {
            return reply(failure(id, Self.unsupported(type), contentType: type))
        }
        let job = ProviderJob(path: path, contentType: type, box: box,
                              wantsLowQuality: types.contains(.lowQuality), wantsThumbnail: types.contains(.thumbnail), cancellation: flag,
                              wantsFacts: thumbnails.wantsFacts, embeddedSuffices: thumbnails.embeddedSuffices)
        var firstError: ThumbnailError?
        for provider in candidates {
            var delivered = false
            do {
                try provider.makeImages(for: job) { picture in
                    guard !flag.isCancelled, types.contains(picture.type) else { return }
                    delivered = delivered || picture.type == .thumbnail || !job.wantsThumbnail
                    let size = PixelSize(width: picture.image.width, height: picture.image.height)
                    let answer = WorkerAnswer.image(.init(type: picture.type, size: size, source: picture.source, facts: picture.facts))
                    reply(WorkerCodec.frame(answer, id: id, payload: picture.image.pixels))
                }
                return reply(WorkerCodec.frame(.done, id: id))
            } catch {
                if error.code == .cancelled || delivered { return reply(failure(id, error, contentType: type, path: path)) }
                firstError = firstError ?? error
            }
        }
        reply(failure(id, Self.blameTheVolume(firstError, path: path) ?? Self.unsupported(type), contentType: type, path: path))
    }

    /// A decoder that could not read (a share's server went away mid-file) reports the content as
    /// broken; if the file cannot be read now, the honest reason is the read error, which the
    /// cache does not remember against the file.
    static func blameTheVolume(_ error: ThumbnailError?, path: String) -> ThumbnailError? {
        guard let error, error.code == .corrupt || error.code == .noPreview else { return error }
        var fd: Int32 = -1
        var failure: Int32 = 0
        do { fd = try UntrustedFile.openRegular(path, links: .followed) } catch { failure = error.errno }
        var byte: UInt8 = 0
        if fd >= 0 {
            if pread(fd, &byte, 1, 0) < 0 { failure = errno }
            close(fd)
        }
        guard failure != 0 else { return error }
        return ThumbnailError(.unreadable, "cannot read the file: \(String(cString: strerror(failure)))", contentType: error.contentType)
    }

    private static func unsupported(_ type: ContentType) -> ThumbnailError {
        switch type.identifier {
        case "inode/x-empty", "application/x-empty": return ThumbnailError(.noPreview, "the file is empty")
        default: return ThumbnailError(.unsupported, "no thumbnailer for \(type.identifier)")
        }
    }

    func failure(_ id: UInt64, _ error: ThumbnailError, contentType: ContentType?, path: String? = nil) -> WorkerFrame {
        // Library messages often repeat the path; the caller names the file already.
        let reason = path.map { error.reason.replacing($0 + ": ", with: "").replacing($0, with: "the file") } ?? error.reason
        return WorkerCodec.frame(.failure(.init(ThumbnailError(error.code, reason, contentType: contentType))), id: id)
    }

    func reply(_ frame: WorkerFrame) {
        do { try FrameCodec.write(frame, to: 1) } catch { exit(0) }  // the client is gone
    }
}
