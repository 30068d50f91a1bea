import SystemKit
import ThumbnailKit

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

    public init(_ thumbnailer: ThumbnailerFile, deadline: Double = 10, sandbox: ThumbnailerSandbox = .automatic) {
        self.init(thumbnailer, deadline: deadline, sandbox: sandbox, searchPath: ProgramSearch.processSearchPath)
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
        let command = ExternalCommand(name: name, file: thumbnailer.path, exec: thumbnailer.exec, sandbox: sandbox, searchPath: searchPath)
        let image = try ExternalCommand.inPrivateFolder { directory throws(ThumbnailError) in
            let output = directory + "/thumbnail.png"
            let values = ThumbnailerCommand.Values(input: PathNormalizer.absolute(job.path), output: output, size: size,
                                                   mimeType: job.contentType.identifier)
            _ = try command.run(values, directory: directory, deadline: deadline, cancellation: job.cancellation)
            return try command.picture(at: output, box: job.box, cancellation: job.cancellation)
        }
        emit(ProviderImage(.thumbnail, image, source: name))
    }
}
