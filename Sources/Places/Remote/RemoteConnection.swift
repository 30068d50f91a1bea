import Dispatch
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// One process speaking the remote protocol (the user's `ssh` running `qlbrowse serve --stdio`
/// on the host) and every request in flight over it. Frames go out under a lock; a thread reads
/// the answers and hands each to its request's handler; another keeps the last lines `ssh`
/// wrote on its standard error, for messages (and shows them while connecting, where a password
/// prompt or a changed host key must be seen). When the process ends, every request still open
/// hears that the link is gone.
final class RemoteConnection: Sendable {
    /// Called with each answer to a request, or with the failure that ends it.
    typealias Handler = @Sendable (Result<(RemoteAnswer, [UInt8]), FileSystemError>) -> Void

    private struct State {
        var handlers: [UInt64: Handler] = [:]
        var nextID: UInt64 = 1
        /// Why the link is gone; nil while it is up.
        var gone: FileSystemError?
    }

    /// The ssh that carries the link (`SSHProcess`: the spawn, its standard error).
    private let process: SSHProcess
    var pid: pid_t { process.pid }
    /// What the place is called in messages ("nas:/photos" → "nas").
    private let host: String
    private let state = Mutex(State())
    /// The requests' end of the channel to the process's standard input (a socket, not a pipe,
    /// so that a request written after the process ended fails instead of raising SIGPIPE),
    /// written by a thread of its own: a silent link never blocks a caller.
    private let requests: RemoteFrameWriter
    /// The process's exit status, once reaped.
    private let exitStatus = Mutex<Int32?>(nil)
    /// Bytes read from the link and handed to it (frames, heads included; queued for the writer):
    /// what crossed, or is on its way.
    let bytesIn = Atomic<Int>(0)
    let bytesOut = Atomic<Int>(0)
    /// Whether the remote answered the hello (a link lost before that never connected).
    private let isOpen = Atomic<Bool>(false)

    /// Starts `command` (its argv); `echoErrors` shows its standard error on ours until the
    /// hello is answered.
    init(command: [String], host: String, echoErrors: Bool) throws(FileSystemError) {
        self.host = host
        process = try SSHProcess(command: command, echoErrors: echoErrors, label: "qlbrowse.remote")
        requests = RemoteFrameWriter(process.requests, name: String(process.pid))
        requests.start { [self] in end(because: lost()) }
        startReadingAnswers(process.answers)
    }

    /// Sends `request`; `handler` hears each answer until the one that ends it, or the failure
    /// that ends it. Returns the request's id (for `cancel`).
    @discardableResult
    func send(_ request: RemoteRequest, payload: [UInt8] = [], handler: @escaping Handler) -> UInt64 {
        let (id, gone) = state.withLock { state -> (UInt64, FileSystemError?) in
            let id = state.nextID
            state.nextID += 1
            if state.gone == nil { state.handlers[id] = handler }
            return (id, state.gone)
        }
        if let gone {
            handler(.failure(gone))
            return id
        }
        let frame = RemoteCodec.frame(request, id: id, payload: payload)
        if RemoteTrace.isOn { RemoteTrace.note("browser", "sends \(id) \(RemoteTrace.describe(request)) \(frame.head.count + frame.payload.count) bytes") }
        bytesOut.add(frame.head.count + frame.payload.count, ordering: .relaxed)
        if !requests.enqueue(frame) { end(because: lost()) }
        return id
    }

    /// Sends the hello as request 0 and returns the remote's, or why there is none.
    func hello(_ mine: RemoteHello, within seconds: Double) throws(FileSystemError) -> RemoteHello {
        let answer = Mutex<Result<RemoteHello, FileSystemError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        state.withLock { $0.handlers[0] = { result in
            answer.withLock { $0 = result.flatMap { answer, _ in
                if case .hello(let version, let software) = answer { return .success(RemoteHello(version: version, software: software)) }
                return .failure(FileSystemError(code: .other, context: "the remote did not answer the hello"))
            } }
            done.signal()
        } }
        let frame = RemoteCodec.frame(RemoteRequest.hello(version: mine.version, software: mine.software), id: 0)
        RemoteTrace.note("browser", "sends the hello (ssh started)")
        if !requests.enqueue(frame) { end(because: lost()) }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            close()
            throw FileSystemError(code: .notResponding, path: host, context: "\(host) did not answer within \(Int(seconds)) s" + lastError())
        }
        process.stopEchoing()
        RemoteTrace.note("browser", "hears the hello")
        let hello = try answer.withLock { $0 }!.get()
        isOpen.store(true, ordering: .relaxed)
        return hello
    }

    /// Sends `request` under the id of a request in flight (an operation's answer to a question,
    /// a pause), which it does not end.
    func signal(_ request: RemoteRequest, to id: UInt64) {
        let frame = RemoteCodec.frame(request, id: id)
        bytesOut.add(frame.head.count + frame.payload.count, ordering: .relaxed)
        requests.enqueue(frame)
    }

    /// Tells the remote to stop request `id`; its handler hears nothing more.
    func cancel(_ id: UInt64) {
        let known = state.withLock { $0.handlers.removeValue(forKey: id) != nil }
        guard known else { return }
        RemoteTrace.note("browser", "cancels \(id)")
        requests.enqueue(RemoteCodec.frame(.cancel, id: id))
    }

    /// Ends request `id` with `failure` (its deadline passed) and tells the remote to stop it:
    /// the caller hears first, whatever the link does with the cancel.
    func fail(_ id: UInt64, with failure: FileSystemError) {
        guard let handler = state.withLock({ $0.handlers.removeValue(forKey: id) }) else { return }
        handler(.failure(failure))
        RemoteTrace.note("browser", "gives up on \(id)")
        requests.enqueue(RemoteCodec.frame(.cancel, id: id))
    }

    /// Bytes of requests queued and not yet taken by the process (a silent link's backlog).
    var backlog: Int { requests.backlog }

    /// Why the link is gone, nil while it is up.
    var gone: FileSystemError? { state.withLock { $0.gone } }

    /// Closes the requests' channel: the remote ends, and so does `ssh`.
    func close() {
        requests.close()
    }

    /// Kills the process (a remote that hangs after the requests' pipe closed).
    func kill() { _ = Glibc.kill(pid, SIGTERM) }

    private func startReadingAnswers(_ fd: Int32) {
        DispatchQueue(label: "qlbrowse.remote.\(pid)").async { [self] in
            while true {
                let frame: WorkerFrame?
                do { frame = try FrameCodec.read(from: fd) } catch { frame = nil }
                guard let frame else { break }
                bytesIn.add(frame.head.count + frame.payload.count, ordering: .relaxed)
                deliver(frame)
            }
            Glibc.close(fd)
            let status = SystemCall.waitForExit(pid)
            exitStatus.withLock { $0 = status }
            process.waitForErrors(seconds: 1)
            end(because: lost())
        }
    }

    private func deliver(_ frame: WorkerFrame) {
        let result: Result<(RemoteAnswer, [UInt8]), FileSystemError>
        var ends = true
        if frame.id == 0, let hello = RemoteCodec.hello(in: frame) {
            result = .success((.hello(version: hello.version, software: hello.software), []))
        } else {
            do throws(WorkerCodecError) {
                let answer = try RemoteCodec.answer(in: frame)
                if RemoteTrace.isOn { RemoteTrace.note("browser", "hears \(frame.id) \(RemoteTrace.describe(answer)) \(frame.head.count + frame.payload.count) bytes") }
                ends = answer.endsRequest
                result = .success((answer, frame.payload))
            } catch {
                result = .failure(FileSystemError(code: .other, path: host, context: "\(host) sent an answer this qlbrowse cannot read: \(error)"))
            }
        }
        let handler = state.withLock { state in ends ? state.handlers.removeValue(forKey: frame.id) : state.handlers[frame.id] }
        handler?(result)
    }

    /// Marks the link gone and ends every open request with `failure`.
    private func end(because failure: FileSystemError) {
        let open = state.withLock { state -> [Handler] in
            if state.gone == nil { state.gone = failure }
            defer { state.handlers.removeAll() }
            return Array(state.handlers.values)
        }
        close()
        for handler in open { handler(.failure(failure)) }
    }

    /// The failure of a link that ended: the process's own last words when it left any.
    private func lost() -> FileSystemError {
        let status = exitStatus.withLock { $0 }
        let notFound = status.map { ($0 >> 8) & 0xff == 127 } ?? false
        if !isOpen.load(ordering: .relaxed), let told = SSHDiagnosis.explain(process.errorText, host: host) {
            return FileSystemError(code: .volumeGone, path: host, context: told)
        }
        let what = notFound ? Self.missing(on: host) + " (set remote_command in config.toml, or QLBROWSE_REMOTE_COMMAND)"
            : isOpen.load(ordering: .relaxed) ? "the connection to \(host) was lost" : "cannot connect to \(host)"
        return FileSystemError(code: .volumeGone, path: host, context: what + lastError())
    }

    /// The words of a remote whose shell did not find the command (exit status 127).
    static func missing(on host: String) -> String { "qlbrowse was not found on \(host)" }

    /// The last line the process wrote on its standard error, as " (…)", or "".
    func lastError() -> String { process.lastError() }
}
