import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// This machine's copy of the thumbnails a remote place sent, so that a second visit to a remote
/// folder asks the remote nothing for the files that did not change (the freedesktop cache
/// cannot hold them: it is keyed by local URIs, and another program would take them for local
/// files). Kept in the user's cache folder (`$XDG_CACHE_HOME/qlbrowse/remote-thumbnails`, 0700,
/// files 0600), one file per picture named by the MD5 of its key: the remote's address (user,
/// host, port), the path there, the file's version as listed (mtime and size: a changed file has
/// another key, so it is fetched again), the box, the scale and the representations asked, and
/// the protocol version. A file holds the answer as it crossed the link (`RemoteCodec`'s frame:
/// the picture's facts and its JPEG or PNG), written to a temporary file and renamed into place.
public final class RemotePictureCache: Sendable {
    /// The folder the pictures are kept in.
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// The user's: `$XDG_CACHE_HOME/qlbrowse/remote-thumbnails`.
    public static var user: RemotePictureCache {
        RemotePictureCache(folder: ProcessEnvironment.current.cacheHome + "/qlbrowse/remote-thumbnails")
    }

    /// The file that holds the picture `request` asks of `address`.
    func file(for request: RemoteRequest.Thumbnail, at address: RemoteAddress) -> String {
        let key = [address.destination, "\(address.port ?? 22)", request.path, "\(request.modified)", "\(request.size)", "\(request.box)",
                   "\(request.scale)", request.types.map(\.rawValue).joined(separator: ","), "\(RemoteCodec.version)"]
        return folder + "/" + MD5.hex(key.joined(separator: "\u{0}")) + ".picture"
    }

    /// The picture kept for `request`, or nil (none, or unreadable: then it is asked again).
    func picture(for request: RemoteRequest.Thumbnail, at address: RemoteAddress) -> (RemoteAnswer.Picture, [UInt8])? {
        let fd = open(file(for: request, at: address), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let frame = try? FrameCodec.read(from: fd), case .thumbnail(let picture)? = try? RemoteCodec.answer(in: frame) else { return nil }
        return (picture, frame.payload)
    }

    /// Keeps `picture` (its bytes as they crossed) for `request`; a failure to write is no failure.
    func keep(_ picture: RemoteAnswer.Picture, bytes: [UInt8], for request: RemoteRequest.Thumbnail, at address: RemoteAddress) {
        guard FolderMaker.make(folder) else { return }
        let path = file(for: request, at: address)
        guard let temporary = try? TemporaryFile.create(template: path + ".XXXXXX.tmp", suffixLength: 4) else { return }
        let written = (try? FrameCodec.write(RemoteCodec.frame(RemoteAnswer.thumbnail(picture), id: 0, payload: bytes), to: temporary.descriptor)) != nil
        close(temporary.descriptor)
        if !written || rename(temporary.path, path) != 0 { _ = unlink(temporary.path) }
    }
}
