import Dispatch
import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

/// A folder on another machine reached through its SSH server's plain SFTP subsystem: the
/// fallback when the remote has no qlbrowse to run (`RemotePlace` needs `qlbrowse serve` there).
/// One process (`ssh -s HOST sftp`, the user's own ssh and its config, `RemoteCommand`) carries
/// every request at once, each matched to its answer by id (`SFTPConnection`).
///
/// Nothing runs on the remote but the SFTP server, so pictures are made here, reading as little
/// as can be: a photo's embedded preview (its EXIF or MPF thumbnail) from a ranged read of its
/// first bytes; the whole file only when the full picture is wanted, copied into `fileCache`
/// (keyed by host, path, size and mtime: a second visit reads nothing) and thumbnailed there by
/// the local engine; `T` does the same for whole folders. It has no watch: the shown folder is
/// polled (`SFTPPlace+Watch`). What SFTP cannot do as the local place does (a trash, Quick
/// Look's workers, saving) is refused with a message, never done differently.
///
/// The volume rules hold as for `RemotePlace`: every request has a deadline without an answer
/// and fails `.notResponding` past it; a link that drops ends every open request at once with
/// `.volumeGone` and ssh's last words, and the next call connects again.
public final class SFTPPlace: Place, ServerSideCopying {
    public let name: String
    public let address: RemoteAddress
    let command: RemoteCommand
    private let current: Mutex<SFTPConnection?>
    private let connecting = Mutex<Void>(())
    let callDeadline: Double
    let listingDeadline: Double
    /// Where whole files read for their full picture are kept (nil: none kept, none read).
    public let fileCache: SFTPFileCache?
    /// The local engine that makes a full picture from a cached copy (nil: embedded previews only).
    private let generator = Mutex<ThumbnailGenerator?>(nil)
    /// The cache `generator` stores in, where `T` looks for what it made before (nil: the user's).
    private let generatorCache = Mutex<ThumbnailCache?>(nil)
    /// The whole-file reads under way, by the copy they make, with how many wait for each: a
    /// file asked for twice (a tile and the preview pane) is read once; a read nobody waits for
    /// any more (scrolled away) stops.
    let downloads = Mutex<[String: (task: Task<String?, Never>, askers: Int)]>([:])
    /// Three whole-file reads at a time, the others waiting in the order asked.
    let downloadTurns = SFTPDownloadTurns(slots: 3)
    /// Set once the server answered that it has no `fsync@openssh.com`: not asked again.
    let lacksFsync = Atomic<Bool>(false)
    /// Set once the server answered that it has no `copy-data`: not asked again.
    let lacksCopyData = Atomic<Bool>(false)
    /// The last folder listed whole and its names as READDIR had them: where a watch of it
    /// starts, so that a change between that listing and the watch's first poll is seen.
    let lastListing = Mutex<(folder: String, names: [[UInt8]: SFTPAttributes])?>(nil)
    /// Bytes of files read by connections before the open one (for measurements).
    private let earlierFileBytes = Atomic<Int>(0)

    /// Connects to `address` (ssh's prompts and warnings shown on standard error while it does)
    /// and checks that the server speaks SFTP version 3 or later. Blocking: call it before the
    /// browser takes the terminal, never on a cooperative thread. With `asks` false (the
    /// browser's connect prompt) ssh asks nothing (`BatchMode`) and what it says is kept, not shown.
    public init(connectingTo address: RemoteAddress, command: RemoteCommand, callDeadline: Double = 5, listingDeadline: Double = 10,
                connectSeconds: Double = 60, fileCache: SFTPFileCache? = nil, thumbnails: ThumbnailGenerator? = nil, asks: Bool = true) throws(FileSystemError) {
        self.address = address
        self.name = address.host
        self.command = command
        self.callDeadline = callDeadline
        self.listingDeadline = listingDeadline
        self.fileCache = fileCache
        generator.withLock { $0 = thumbnails }
        current = Mutex(try Self.connect(address, command: command, reconnecting: !asks, seconds: connectSeconds))
    }

    private static func connect(_ address: RemoteAddress, command: RemoteCommand, reconnecting: Bool,
                                seconds: Double) throws(FileSystemError) -> SFTPConnection {
        let connection = try SFTPConnection(command: command.sftpArguments(for: address, reconnecting: reconnecting), host: address.host,
                                            echoErrors: !reconnecting)
        let version = try connection.hello(within: seconds)
        guard version >= SFTPCodec.version else {
            connection.close()
            throw FileSystemError(code: .unsupported, path: address.host, context: "the SFTP server of \(address.host) speaks version \(version), this qlbrowse needs 3")
        }
        return connection
    }

    /// Sets the local engine that thumbnails the cached copies (the browser's workers, made
    /// after the place is connected), and the thumbnail cache it stores in (nil: the user's).
    public func useThumbnails(_ thumbnails: ThumbnailGenerator?, cache: ThumbnailCache? = nil) {
        generator.withLock { $0 = thumbnails }
        generatorCache.withLock { $0 = cache }
    }
    var thumbnails: ThumbnailGenerator? { generator.withLock { $0 } }
    var thumbnailCache: ThumbnailCache { generatorCache.withLock { $0 } ?? ThumbnailCache() }

    /// Quick Look's workers run where the files are, and nothing of ours runs there.
    public var previews: PreviewGenerator? { nil }

    func connection() async throws(FileSystemError) -> SFTPConnection {
        if let open = current.withLock({ $0 }), open.gone == nil { return open }
        let result: Result<SFTPConnection, FileSystemError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                continuation.resume(returning: connecting.withLock { _ -> Result<SFTPConnection, FileSystemError> in
                    if let open = current.withLock({ $0 }), open.gone == nil { return .success(open) }
                    do throws(FileSystemError) {
                        let fresh = try Self.connect(address, command: command, reconnecting: true, seconds: callDeadline * 4)
                        current.withLock { old in
                            earlierFileBytes.add(old?.fileBytesRead.load(ordering: .relaxed) ?? 0, ordering: .relaxed)
                            old = fresh
                        }
                        return .success(fresh)
                    } catch {
                        return .failure(error)
                    }
                })
            }
        }
        return try result.get()
    }

    /// The protocol's bytes that crossed the open connection so far, each way.
    public var traffic: (received: Int, sent: Int) {
        guard let open = current.withLock({ $0 }) else { return (0, 0) }
        return (open.bytesIn.load(ordering: .relaxed), open.bytesOut.load(ordering: .relaxed))
    }

    /// The bytes of files read over the link so far (every connection's): what a ranged read saves.
    public var fileBytesRead: Int {
        earlierFileBytes.load(ordering: .relaxed) + (current.withLock { $0 }?.fileBytesRead.load(ordering: .relaxed) ?? 0)
    }

    /// The connection open now, if any (closing a handle needs no new one).
    var openConnection: SFTPConnection? { current.withLock { $0 } }

    /// The ssh process of the open connection, for tests that cut the link.
    public var linkProcessID: Int32? { current.withLock { $0 }.map { $0.pid } }

    /// Ends the connection: the SFTP server exits with the link.
    public func disconnect() { current.withLock { $0 }?.close() }

    /// Sends `request` and waits for its answer: `.notResponding` past `deadline` seconds
    /// (`callDeadline` when nil), `.cancelled` when the caller's task is cancelled; a status other
    /// than OK fails as the matching `FileSystemError` about `path` (end of file only where
    /// `endOfFile` is allowed: then `.status` is returned).
    func call(_ request: SFTPRequest, path: String, deadline: Double? = nil, allowsEndOfFile: Bool = false) async throws(FileSystemError) -> SFTPReply {
        let connection = try await connection()
        let slot = Mutex<UInt32?>(nil)
        let result: Result<SFTPReply, FileSystemError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let timer = Mutex<RemoteDeadline?>(nil)
                let once = Atomic<Bool>(false)
                let id = connection.send(request) { result in
                    guard !once.exchange(true, ordering: .relaxed) else { return }
                    timer.withLock { $0 }?.finish()
                    continuation.resume(returning: result)
                }
                slot.withLock { $0 = id }
                let name = TerminalText.escaped(self.name)
                let deadline = RemoteDeadline(seconds: deadline ?? callDeadline) { connection.fail(id, with: .notResponding(name)) }
                timer.withLock { $0 = deadline }
                if once.load(ordering: .relaxed) { deadline.finish() }
            }
        } onCancel: {
            if let id = slot.withLock({ $0 }) { connection.fail(id, with: .cancelled) }
        }
        let reply = try result.get()
        if case .status(_, let code, let message) = reply, code != SFTPReply.ok, !(allowsEndOfFile && code == SFTPReply.endOfFile) {
            throw failure(code, message, path: path)
        }
        return reply
    }

    /// The failure a status code stands for.
    func failure(_ code: UInt32, _ message: String, path: String) -> FileSystemError {
        let shown = TerminalText.escaped(message)
        switch code {
        case SFTPReply.noSuchFile: return FileSystemError(code: .notFound, path: path, context: nil)
        case SFTPReply.permissionDenied: return FileSystemError(code: .permissionDenied, path: path, context: nil)
        case SFTPReply.endOfFile: return FileSystemError(code: .other, path: path, context: "\(TerminalText.escaped(name)) ended the file early")
        case SFTPReply.unsupported: return FileSystemError(code: .unsupported, path: path, context: "\(TerminalText.escaped(name))'s SFTP server does not do this")
        default: return FileSystemError(code: .other, path: path, context: "\(TerminalText.escaped(name)) refused: \(shown.isEmpty ? "failure" : shown)")
        }
    }

    func unexpected(_ path: String) -> FileSystemError {
        FileSystemError(code: .other, path: path, context: "\(TerminalText.escaped(name)) answered something else than was asked")
    }

    /// The remote's absolute path for `path` (relative ones are in the home folder there, an
    /// empty one is the home folder) and what is there.
    public func resolve(_ path: String) async throws(FileSystemError) -> PlaceItem {
        guard case .names(_, let names) = try await call(.realPath(path: (path.isEmpty ? "." : path).fileSystemBytes), path: path),
              let first = names.first else { throw unexpected(path) }
        return try await item(at: String(fileSystemBytes: first.name))
    }
}
