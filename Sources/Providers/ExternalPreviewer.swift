import SystemKit
import ThumbnailKit

/// Runs one custom previewer (`.previewer` file) for one file: Linux's answer to Quick Look's
/// preview extensions, run exactly as `.thumbnailer` commands are (`ExternalCommand`: no shell,
/// bubblewrap where it works, a private temporary folder, the worker's limits, killed at the
/// deadline or on cancellation).
///
/// A text previewer's standard output is returned as printed, cut at
/// `PreviewGenerator.maximumCustomTextBytes` (the command is stopped there). An image previewer's
/// picture, from `%o` or from standard output, is decoded by libvips and fitted into the box.
public struct ExternalPreviewer: Sendable {
    public let previewer: PreviewerFile
    public let sandbox: ThumbnailerSandbox
    /// Where programs named without a slash are looked for.
    let searchPath: String

    public init(_ previewer: PreviewerFile, sandbox: ThumbnailerSandbox = .automatic) {
        self.init(previewer, sandbox: sandbox, searchPath: ProgramSearch.processSearchPath)
    }

    init(_ previewer: PreviewerFile, sandbox: ThumbnailerSandbox, searchPath: String) {
        self.previewer = previewer
        self.sandbox = sandbox
        self.searchPath = searchPath
    }

    /// The previewer's output for the file at `path`, whose sniffed type is `type`. `box` is in
    /// pixels (`%w`, `%h`, and where a picture is fitted), `columns`×`rows` in cells (`%c`, `%r`).
    public func preview(path: String, type: ContentType, box: PixelSize, columns: Int, rows: Int, deadline: Double,
                        cancellation: CancellationFlag) throws(ThumbnailError) -> CustomPreview {
        try cancellation.check()
        let command = ExternalCommand(name: previewer.name, file: previewer.path, exec: previewer.exec, sandbox: sandbox, searchPath: searchPath)
        let info = previewer.info(for: type.identifier)
        let (output, writesFile) = (previewer.output, previewer.writesOutputFile)
        return try ExternalCommand.inPrivateFolder { directory throws(ThumbnailError) in
            let picture = directory + "/preview.png"
            let values = ThumbnailerCommand.Values(input: PathNormalizer.absolute(path), output: picture, size: max(box.width, box.height),
                                                   mimeType: type.identifier, width: box.width, height: box.height, columns: columns, rows: rows)
            switch output {
            case .text:
                let (text, cut) = try command.run(values, directory: directory, deadline: deadline, cancellation: cancellation,
                                                  captureLimit: PreviewGenerator.maximumCustomTextBytes)
                return CustomPreview(previewer: info, content: .text(text), truncated: cut)
            case .image where writesFile:
                _ = try command.run(values, directory: directory, deadline: deadline, cancellation: cancellation)
                return CustomPreview(previewer: info, content: .image(try command.picture(at: picture, box: box, cancellation: cancellation)),
                                     truncated: false)
            case .image:
                let (bytes, tooLarge) = try command.run(values, directory: directory, deadline: deadline, cancellation: cancellation,
                                                        captureLimit: ExternalCommand.maximumPictureBytes)
                guard !tooLarge else { throw ThumbnailError(.tooLarge, "\(previewer.name) printed a picture too large to read") }
                return CustomPreview(previewer: info, content: .image(try command.picture(bytes, box: box, cancellation: cancellation)),
                                     truncated: false)
            }
        }
    }
}
