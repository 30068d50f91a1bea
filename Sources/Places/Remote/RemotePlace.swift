import Dispatch
import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

/// A folder on another machine as a `Place`: every call is a request to `qlbrowse serve --stdio`
/// there, over one process (the user's own `ssh`, `RemoteCommand`) that carries every request at
/// once, each with its id. Thumbnails are made and cached where the files are and cross the link
/// at the size asked, a photo's as JPEG (File Provider's `fetchThumbnails`), and are kept here
/// for the next visit (`pictureCache`); a read is ranged.
///
/// The volume rules hold: every request has a deadline without progress (5 s a call, 10 s a
/// listing's batch, 60 s a thumbnail) and fails `.notResponding` past it, so a remote that hangs
/// shows the browser's "waiting for …" and never freezes it; a link that drops ends every open
/// request at once with `.volumeGone` and what `ssh` last said, and the next call connects
/// again (without a password prompt: the terminal is the browser's).
public final class RemotePlace: Place {
    public let name: String
    public let address: RemoteAddress
    let command: RemoteCommand
    /// The protocol version this side speaks (`RemoteCodec.version`; another, passed to the
    /// initialiser, only to test how a mismatch is named).
    let protocolVersion: Int
    private let current: Mutex<RemoteConnection?>
    /// One connection attempt at a time.
    private let connecting = Mutex<Void>(())
    let callDeadline: Double
    let listingDeadline: Double
    let thumbnailDeadline: Double
    /// The `.changes` messages the watches heard so far (for measurements: a busy folder's
    /// changes cross in a few messages, not one per name).
    let watchMessagesHeard = Atomic<Int>(0)
    /// This machine's copy of the pictures the remote sent (nil: none kept), asked first.
    public let pictureCache: RemotePictureCache?

    /// Connects to `address` (showing `ssh`'s prompts and warnings on standard error while it
    /// does) and checks that the remote speaks this protocol version: a mismatch is named ("the
    /// remote qlbrowse speaks version N, this one M"), as is a remote without qlbrowse. Blocking:
    /// call it before the browser takes the terminal, never on a cooperative thread. With
    /// `asks` false (the browser's connect prompt, the terminal being the browser's), ssh asks
    /// nothing (`BatchMode`) and what it says is kept for the failure, not shown.
    public init(connectingTo address: RemoteAddress, command: RemoteCommand, protocolVersion: Int? = nil,
                callDeadline: Double = 5, listingDeadline: Double = 10, thumbnailDeadline: Double = 60,
                connectSeconds: Double = 60, pictureCache: RemotePictureCache? = nil, asks: Bool = true) throws(FileSystemError) {
        self.address = address
        self.name = address.host
        self.command = command
        self.protocolVersion = protocolVersion ?? RemoteCodec.version
        self.callDeadline = callDeadline
        self.listingDeadline = listingDeadline
        self.thumbnailDeadline = thumbnailDeadline
        self.pictureCache = pictureCache
        current = Mutex(try Self.connect(address, command: command, version: self.protocolVersion, reconnecting: !asks, seconds: connectSeconds))
    }

    private static func connect(_ address: RemoteAddress, command: RemoteCommand, version: Int, reconnecting: Bool,
                                seconds: Double) throws(FileSystemError) -> RemoteConnection {
        let keepAlive = SSHKeepAlive.options(for: address, command: command)
        let connection = try RemoteConnection(command: command.arguments(for: address, reconnecting: reconnecting, options: keepAlive), host: address.host,
                                              echoErrors: !reconnecting)
        let theirs: RemoteHello
        do throws(FileSystemError) {
            theirs = try connection.hello(RemoteHello(version: version, software: "qlbrowse"), within: seconds)
        } catch {
            connection.close()
            throw error
        }
        guard theirs.version == version else {
            connection.close()
            throw FileSystemError(code: .unsupported, path: address.host, context: mismatch(theirs, mine: version, host: address.host))
        }
        return connection
    }

    /// A version mismatch in words: which side is older, and what to do about it.
    static func mismatch(_ theirs: RemoteHello, mine: Int, host: String) -> String {
        let software = TerminalText.escaped(theirs.software)
        let remedy = theirs.version < mine
            ? "the one on \(host) (\(software)) is older: install this version of qlbrowse on \(host), or set remote_command (QLBROWSE_REMOTE_COMMAND) to a newer one there"
            : "the one on \(host) (\(software)) is newer: update qlbrowse here, or set remote_command (QLBROWSE_REMOTE_COMMAND) to one of this version there"
        return "the remote qlbrowse speaks version \(theirs.version), this one \(mine): " + remedy
    }

    /// Whether `error` (of connecting to `host`) says the remote has no qlbrowse to run: then
    /// the SFTP fallback (`SFTPPlace`) can reach it all the same.
    public static func lacksRemoteCommand(_ error: FileSystemError, host: String) -> Bool {
        error.code == .volumeGone && error.context?.hasPrefix(RemoteConnection.missing(on: host)) == true
    }

    /// The connection: the one open, else a new one (the link dropped since).
    func connection() async throws(FileSystemError) -> RemoteConnection {
        if let open = current.withLock({ $0 }), open.gone == nil { return open }
        let result: Result<RemoteConnection, FileSystemError> = await withCheckedContinuation { continuation in
            // Connecting blocks (ssh's handshake): on a thread of its own, not a cooperative one.
            DispatchQueue.global().async { [self] in
                continuation.resume(returning: connecting.withLock { _ -> Result<RemoteConnection, FileSystemError> in
                    if let open = current.withLock({ $0 }), open.gone == nil { return .success(open) }
                    do throws(FileSystemError) {
                        let fresh = try Self.connect(address, command: command, version: protocolVersion, reconnecting: true, seconds: callDeadline * 4)
                        current.withLock { $0 = fresh }
                        return .success(fresh)
                    } catch {
                        return .failure(error)
                    }
                })
            }
        }
        return try result.get()
    }

    /// The protocol's bytes that crossed the open connection so far, each way (for measurements).
    public var traffic: (received: Int, sent: Int) {
        guard let open = current.withLock({ $0 }) else { return (0, 0) }
        return (open.bytesIn.load(ordering: .relaxed), open.bytesOut.load(ordering: .relaxed))
    }

    /// The watch messages (`.changes`) heard so far, over every connection (for measurements).
    public var watchMessages: Int { watchMessagesHeard.load(ordering: .relaxed) }

    /// The open connection, if it is still up (a watch waits for one after the link dropped).
    var liveConnection: RemoteConnection? {
        current.withLock { $0 }.flatMap { $0.gone == nil ? $0 : nil }
    }

    /// The process that carries the open connection (the user's ssh, or the shell that runs
    /// `QLBROWSE_SSH_COMMAND`), for diagnostics and for tests that cut the link.
    public var linkProcessID: Int32? { current.withLock { $0 }.map { $0.pid } }

    /// Ends the connection: the remote side exits with the link.
    public func disconnect() {
        current.withLock { $0 }?.close()
    }

    /// The remote's absolute path for `path` (relative ones are in the home folder there) and
    /// what is there.
    public func resolve(_ path: String) async throws(FileSystemError) -> PlaceItem {
        guard case .resolved(_, let item) = try await call(.resolve(path: path)).0 else { throw unexpected() }
        return item.item
    }

    /// Sends `request` and waits for the answer that ends it: `.notResponding` past `deadline`
    /// seconds without an answer (`callDeadline` when nil), the remote's failure as it sent it,
    /// `.cancelled` when the caller's task is cancelled. With `keepsFailure`, the remote's
    /// `.failure` is returned as an answer (a thumbnail's keeps its own code). Answers that do not
    /// end the request (an operation's progress and questions, a batch's events) go to `during`
    /// as they come, each one starting the deadline again; `sent` hears the request's id and
    /// connection once it is sent (to pause or answer it).
    func call(_ request: RemoteRequest, payload: [UInt8] = [], deadline: Double? = nil, keepsFailure: Bool = false,
              sent: (@Sendable (UInt64, RemoteConnection) -> Void)? = nil,
              during: (@Sendable (RemoteAnswer, [UInt8]) -> Void)? = nil) async throws(FileSystemError) -> (RemoteAnswer, [UInt8]) {
        let connection = try await connection()
        let slot = Mutex<UInt64?>(nil)
        let result: Result<(RemoteAnswer, [UInt8]), FileSystemError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let once = Atomic<Bool>(false)
                let limit = Mutex<RemoteDeadline?>(nil)
                let id = connection.send(request, payload: payload) { result in
                    if case .success(let (answer, bytes)) = result, !answer.endsRequest {
                        limit.withLock { $0 }?.beat()
                        during?(answer, bytes)
                        return
                    }
                    guard !once.exchange(true, ordering: .relaxed) else { return }
                    limit.withLock { $0 }?.finish()
                    continuation.resume(returning: result.flatMap { answer, bytes in
                        if case .failure(let failure) = answer, !keepsFailure { return .failure(failure.fileSystemError) }
                        return .success((answer, bytes))
                    })
                }
                slot.withLock { $0 = id }
                sent?(id, connection)
                let name = self.name
                let timer = RemoteDeadline(seconds: deadline ?? callDeadline) { connection.fail(id, with: .notResponding(TerminalText.escaped(name))) }
                limit.withLock { $0 = timer }
                if once.load(ordering: .relaxed) { timer.finish() }
            }
        } onCancel: {
            if let id = slot.withLock({ $0 }) { connection.fail(id, with: .cancelled) }
        }
        return try result.get()
    }

    func unexpected() -> FileSystemError {
        FileSystemError(code: .other, path: name, context: "\(TerminalText.escaped(name)) answered something else than was asked")
    }
}
