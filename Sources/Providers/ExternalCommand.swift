import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// One `Exec` line of a `.thumbnailer` or `.previewer` file, run the way every external helper is
/// run: field codes expanded into an argument vector (no shell), the program looked up on `PATH`,
/// wrapped in bubblewrap where that works, in a private temporary folder that is its only writable
/// place and its working folder, killed at the deadline or on cancellation; its exit turned into
/// an error a user understands ("ffmpegthumbnailer failed: exit 1").
struct ExternalCommand {
    /// The helper's name in messages (the file's base name).
    let name: String
    /// The file the `Exec` line came from, for "malformed Exec line in …".
    let file: String
    let exec: String
    let sandbox: ThumbnailerSandbox
    /// Where programs named without a slash are looked for.
    let searchPath: String

    /// Largest picture read back (from the output file or standard output).
    static let maximumPictureBytes = 64 << 20

    /// Runs `body` with a new private folder, deleted afterwards whatever happens.
    static func inPrivateFolder<T>(_ body: (String) throws(ThumbnailError) -> T) throws(ThumbnailError) -> T {
        guard let directory = FileSystem.makeTemporaryDirectory(prefix: "qlbrowse-thumbnailer-") else {
            throw ThumbnailError(.writeFailed, "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        defer { FileSystem.removeTree(directory) }
        return try body(directory)
    }

    /// Runs the command for `values` in `directory` (from `inPrivateFolder`). With `captureLimit`
    /// its standard output is collected, at most that many bytes (`overflowed`: it printed more and
    /// was stopped); without, it goes to /dev/null. Throws for a command that failed, crashed,
    /// overran `deadline` (`.timedOut`) or was cancelled.
    func run(_ values: ThumbnailerCommand.Values, directory: String, deadline: Double, cancellation: CancellationFlag,
             captureLimit: Int? = nil) throws(ThumbnailError) -> (output: [UInt8], overflowed: Bool) {
        guard var command = ThumbnailerCommand.arguments(exec, values) else {
            throw ThumbnailError(.unsupported, "\(name): malformed Exec line in \(file)")
        }
        guard let program = ProgramSearch.executable(command[0], searchPath: searchPath) else {
            throw ThumbnailError(.unsupported, "\(name): \(command[0]) not found")
        }
        command[0] = Self.resolved(program)
        let sandboxed = sandbox.bubblewrap != nil
        let arguments = sandbox.bubblewrap.map {
            ThumbnailerSandbox.wrap(command, bubblewrap: $0, input: values.input, outputDirectory: directory)
        } ?? command
        // Working folder: the private one, so even a core dump of a crashing command is cleaned up.
        let outcome: ThumbnailerProcess.Outcome, output: [UInt8]
        if let captureLimit {
            (outcome, output) = try ThumbnailerProcess.capture(arguments, directory: directory, deadline: deadline,
                                                               limit: captureLimit, cancellation: cancellation)
        } else {
            (outcome, output) = (try ThumbnailerProcess.run(arguments, directory: directory, deadline: deadline, cancellation: cancellation), [])
        }
        switch outcome {
        case .cancelled: throw ThumbnailError(.cancelled, "cancelled")
        case .timedOut: throw ThumbnailError(.timedOut, "\(name) took longer than \(Self.seconds(deadline))")
        case .signalled(let signal): throw ThumbnailError(.corrupt, "\(name) failed: killed by signal \(signal)")
        case .exited(let code) where code > 128 && code < 160 && sandboxed:
            // bwrap reports a command killed by a signal as 128 + the signal.
            throw ThumbnailError(.corrupt, "\(name) failed: exit \(code) (killed by signal \(code - 128))")
        case .exited(let code) where code != 0: throw ThumbnailError(.corrupt, "\(name) failed: exit \(code)")
        case .exited: return (output, false)
        case .overflowed: return (output, true)
        }
    }

    /// The picture the command wrote to `path`, fitted into `box`.
    func picture(at path: String, box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage {
        guard let file = try? FileBytes(path: path), file.size > 0 else {
            throw ThumbnailError(.corrupt, "\(name) failed: exit 0 without a picture")
        }
        guard file.size <= Self.maximumPictureBytes else { throw ThumbnailError(.tooLarge, "\(name) wrote a picture too large to read") }
        return try picture(file.readAll(limit: Self.maximumPictureBytes), box: box, cancellation: cancellation)
    }

    /// A picture's encoded bytes (PNG, JPEG, anything libvips reads), fitted into `box`.
    func picture(_ bytes: [UInt8], box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage {
        guard !bytes.isEmpty else { throw ThumbnailError(.corrupt, "\(name) failed: exit 0 without a picture") }
        do {
            return try VipsDecoder.thumbnail(bytes: bytes, box: box, cancellation: cancellation)
        } catch {
            if error.code == .cancelled { throw error }
            throw ThumbnailError(.corrupt, "\(name) wrote an unreadable picture")
        }
    }

    /// The program's real path (bubblewrap binds its folder; symbolic links would point outside it).
    private static func resolved(_ path: String) -> String {
        realPath(path) ?? path
    }

    static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
    }
}
