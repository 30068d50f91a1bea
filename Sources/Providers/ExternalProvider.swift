import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// A thumbnail made by a freedesktop `.thumbnailer` command (ffmpegthumbnailer, evince-thumbnailer,
/// a user's own script): Linux's answer to Quick Look's Thumbnail Extensions.
///
/// The command runs without a shell, sandboxed with bubblewrap where that works, writes a PNG into
/// a private temporary folder, and is killed when the request is cancelled or the deadline passes.
/// Its picture is fitted to the box by libvips and reported with the thumbnailer's name as source.
public struct ExternalProvider: ThumbnailProvider {
    public let thumbnailer: ThumbnailerFile
    /// Seconds the command may take.
    public let deadline: Double
    public let sandbox: ThumbnailerSandbox
    /// Where programs named without a slash are looked for.
    let searchPath: String

    public var name: String { thumbnailer.name }

    /// Largest output file read back; a thumbnail is never this big.
    static let maximumOutputBytes = 64 << 20

    public init(_ thumbnailer: ThumbnailerFile, deadline: Double = 10, sandbox: ThumbnailerSandbox = .automatic) {
        self.init(thumbnailer, deadline: deadline, sandbox: sandbox, searchPath: FileSystem.processSearchPath)
    }

    init(_ thumbnailer: ThumbnailerFile, deadline: Double, sandbox: ThumbnailerSandbox, searchPath: String) {
        self.thumbnailer = thumbnailer
        self.deadline = deadline
        self.sandbox = sandbox
        self.searchPath = searchPath
    }

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        guard job.wantsThumbnail else { return }
        let size = max(job.box.width, job.box.height)
        if let minimum = thumbnailer.minimumDimension, size < minimum {
            throw ThumbnailError(.noPreview, "below \(name)'s minimum size")
        }
        try job.cancellation.check()
        guard let directory = FileSystem.makeTemporaryDirectory(prefix: "qlbrowse-thumbnailer-") else {
            throw ThumbnailError(.writeFailed, "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        defer { FileSystem.removeTree(directory) }
        let input = PathNormalizer.absolute(job.path)
        let output = directory + "/thumbnail.png"
        let values = ThumbnailerCommand.Values(input: input, output: output, size: size, mimeType: job.contentType.identifier)
        guard var command = ThumbnailerCommand.arguments(thumbnailer.exec, values) else {
            throw ThumbnailError(.unsupported, "\(name): malformed Exec line in \(thumbnailer.path)")
        }
        guard let program = FileSystem.executable(command[0], searchPath: searchPath) else {
            throw ThumbnailError(.unsupported, "\(name): \(command[0]) not found")
        }
        command[0] = Self.resolved(program)
        let sandboxed = sandbox.bubblewrap != nil
        let arguments = sandbox.bubblewrap.map {
            ThumbnailerSandbox.wrap(command, bubblewrap: $0, input: input, outputDirectory: directory)
        } ?? command
        // Working folder: the private one, so even a core dump of a crashing thumbnailer is cleaned up.
        switch try ThumbnailerProcess.run(arguments, directory: directory, deadline: deadline, cancellation: job.cancellation) {
        case .cancelled: throw ThumbnailError(.cancelled, "cancelled")
        case .timedOut: throw ThumbnailError(.timedOut, "\(name) took longer than \(Self.seconds(deadline))")
        case .signalled(let signal): throw ThumbnailError(.corrupt, "\(name) failed: killed by signal \(signal)")
        case .exited(let code) where code > 128 && code < 160 && sandboxed:
            // bwrap reports a command killed by a signal as 128 + the signal.
            throw ThumbnailError(.corrupt, "\(name) failed: exit \(code) (killed by signal \(code - 128))")
        case .exited(let code) where code != 0: throw ThumbnailError(.corrupt, "\(name) failed: exit \(code)")
        case .exited: break
        }
        guard let file = try? FileBytes(path: output), file.size > 0 else {
            throw ThumbnailError(.corrupt, "\(name) failed: exit 0 without a picture")
        }
        guard file.size <= Self.maximumOutputBytes else { throw ThumbnailError(.tooLarge, "\(name) wrote a picture too large to read") }
        let image: PixelImage
        do {
            image = try VipsDecoder.thumbnail(bytes: file.readAll(limit: Self.maximumOutputBytes), box: job.box, cancellation: job.cancellation)
        } catch {
            if error.code == .cancelled { throw error }
            throw ThumbnailError(.corrupt, "\(name) wrote an unreadable picture")
        }
        emit(ProviderImage(.thumbnail, image, source: name))
    }

    /// The program's real path (bubblewrap binds its folder; symbolic links would point outside it).
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
