import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// One `ssh -s HOST sftp` (the user's own ssh, or `QLBROWSE_SSH_COMMAND`, started as
/// `RemoteConnection` starts it: its standard input a socket so that a request after the end
/// fails instead of raising SIGPIPE, none of our other descriptors) and every SFTP request in
/// flight over it, each matched to its answer by id. A thread reads the answers; another keeps
/// the last lines ssh wrote on its standard error, for messages (shown while connecting, where a
/// changed host key must be seen). When the process ends, every request still open hears that
/// the link is gone.
final class SFTPConnection: Sendable {
    typealias Handler = @Sendable (Result<SFTPReply, FileSystemError>) -> Void

    private struct State {
        var handlers: [UInt32: Handler] = [:]
        var nextID: UInt32 = 1
        var version: Handler?
        var gone: FileSystemError?
    }

    /// The ssh that carries the link (`SSHProcess`, as `RemoteConnection`'s).
    private let process: SSHProcess
    var pid: pid_t { process.pid }
    private let host: String
    private let state = Mutex(State())
    private let requests: Mutex<LocalSocket?>
    private let isOpen = Atomic<Bool>(false)
    /// Packet bytes read from the link and written to it: what crossed.
    let bytesIn = Atomic<Int>(0)
    let bytesOut = Atomic<Int>(0)
    /// The bytes of files read (DATA answers' payloads): what a measurement of "read only the
    /// first bytes" counts.
    let fileBytesRead = Atomic<Int>(0)

    init(command: [String], host: String, echoErrors: Bool) throws(FileSystemError) {
        self.host = host
        process = try SSHProcess(command: command, echoErrors: echoErrors, label: "qlbrowse.sftp")
        requests = Mutex(process.requests)
        startReadingAnswers(process.answers)
    }

    /// Sends SSH_FXP_INIT and waits for the server's version: `.notResponding` past `seconds`,
    /// the link's failure (a host key refused, no sftp subsystem) in ssh's own words.
    func hello(within seconds: Double) throws(FileSystemError) -> UInt32 {
        let answer = Mutex<Result<SFTPReply, FileSystemError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let gone = state.withLock { state -> FileSystemError? in
            state.version = { result in
                answer.withLock { $0 = result }
                done.signal()
            }
            return state.gone
        }
        if let gone { throw gone }
        write(SFTPCodec.hello())
        if done.wait(timeout: .now() + seconds) == .timedOut {
            close()
            throw FileSystemError(code: .notResponding, path: host, context: "\(host) did not answer within \(Int(seconds)) s" + lastError())
        }
        process.stopEchoing()
        guard case .version(let version) = try answer.withLock({ $0 })!.get() else {
            close()
            throw FileSystemError(code: .other, path: host, context: "the SFTP server of \(host) did not answer the hello")
        }
        isOpen.store(true, ordering: .relaxed)
        return version
    }

    /// Sends `request`; `handler` hears its answer or the failure that ends it. The request's id.
    @discardableResult
    func send(_ request: SFTPRequest, handler: @escaping Handler) -> UInt32 {
        let (id, gone) = state.withLock { state -> (UInt32, FileSystemError?) in
            let id = state.nextID
            state.nextID = state.nextID == UInt32.max ? 1 : state.nextID + 1
            if state.gone == nil { state.handlers[id] = handler }
            return (id, state.gone)
        }
        if let gone {
            handler(.failure(gone))
            return id
        }
        write(SFTPCodec.encode(request, id: id))
        return id
    }

    /// Ends request `id` with `failure` (its deadline passed, its caller cancelled); its answer,
    /// if one comes, is dropped (SFTP has no cancel).
    func fail(_ id: UInt32, with failure: FileSystemError) {
        state.withLock { $0.handlers.removeValue(forKey: id) }?(.failure(failure))
    }

    var gone: FileSystemError? { state.withLock { $0.gone } }

    /// How many requests wait for their answer now (0: the link is idle).
    var inFlight: Int { state.withLock { $0.handlers.count } }

    /// Closes the requests' channel: the server ends, and so does ssh.
    func close() {
        requests.withLock { socket in
            socket?.close()
            socket = nil
        }
    }

    private func write(_ packet: [UInt8]) {
        bytesOut.add(packet.count, ordering: .relaxed)
        let sent = requests.withLock { socket in socket?.send(packet) ?? false }
        if !sent { end(because: lost()) }
    }

    private func startReadingAnswers(_ fd: Int32) {
        DispatchQueue(label: "qlbrowse.sftp.\(pid)").async { [self] in
            var failure: FileSystemError?
            while true {
                guard let head = Self.read(fd, count: 4) else { break }
                let length = SFTPCodec.length(head)
                guard length > 0, length <= SFTPCodec.maximumPacket else {
                    failure = FileSystemError(code: .other, path: host, context: "\(host) sent an SFTP packet of \(length) bytes")
                    break
                }
                guard let body = Self.read(fd, count: length) else { break }
                bytesIn.add(length + 4, ordering: .relaxed)
                do throws(SFTPCodec.Malformed) {
                    deliver(try SFTPCodec.decode(body))
                } catch {
                    failure = FileSystemError(code: .other, path: host, context: "\(host) sent an SFTP answer this qlbrowse cannot read: \(error.reason)")
                    break
                }
            }
            Glibc.close(fd)
            close()
            _ = SystemCall.waitForExit(pid)
            process.waitForErrors(seconds: 1)
            end(because: failure ?? lost())
        }
    }

    private func deliver(_ reply: SFTPReply) {
        if case .data(_, let bytes) = reply { fileBytesRead.add(bytes.count, ordering: .relaxed) }
        let handler = state.withLock { state -> Handler? in
            guard let id = reply.id else { defer { state.version = nil }; return state.version }
            return state.handlers.removeValue(forKey: id)
        }
        handler?(.success(reply))
    }

    /// Exactly `count` bytes from `fd`, or nil at its end.
    private static func read(_ fd: Int32, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = SystemCall.retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) } }
            guard got > 0 else { return nil }
            filled += got
        }
        return buffer
    }

    private func end(because failure: FileSystemError) {
        let open = state.withLock { state -> [Handler] in
            if state.gone == nil { state.gone = failure }
            defer { state.handlers.removeAll(); state.version = nil }
            return Array(state.handlers.values) + (state.version.map { [$0] } ?? [])
        }
        close()
        for handler in open { handler(.failure(failure)) }
    }

    /// The failure of a link that ended, in ssh's words when it left any.
    private func lost() -> FileSystemError {
        let text = process.errorText
        if !isOpen.load(ordering: .relaxed), let told = SSHDiagnosis.explain(text, host: host) {
            return FileSystemError(code: .volumeGone, path: host, context: told)
        }
        if !isOpen.load(ordering: .relaxed), text.contains("subsystem request failed") {
            return FileSystemError(code: .unsupported, path: host, context: "\(host) offers no SFTP (its sshd has no sftp subsystem)" + lastError())
        }
        let what = isOpen.load(ordering: .relaxed) ? "the connection to \(host) was lost" : "cannot connect to \(host)"
        return FileSystemError(code: .volumeGone, path: host, context: what + lastError())
    }

    /// The last line ssh wrote on its standard error, as " (…)", or "".
    func lastError() -> String { process.lastError() }
}
