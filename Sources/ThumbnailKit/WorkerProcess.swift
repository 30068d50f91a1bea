import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// One running `qlbrowse-thumbnailer` process and the two pipes to it.
///
/// Frames from the worker arrive on `events`, in order, followed by `.exited` when the process
/// ends (crash, kill or normal exit) — the pool never has to poll.
final class WorkerProcess: Sendable {
    enum Event: Sendable {
        /// A frame and the answer it holds.
        case reply(WorkerReply)
        /// A frame for request `id` whose header this build cannot read.
        case malformed(id: UInt64, WorkerCodecError)
        case exited(ExitStatus)
    }

    let pid: pid_t
    /// The requests' end of the worker's standard input: a socket, so that a request sent to a
    /// worker that just died fails instead of raising SIGPIPE in the browser.
    private let requests: LocalSocket
    let events: AsyncStream<Event>
    /// Opens once the process has been reaped.
    private let reaping = ExitLatch()

    /// Starts `executable` with `arguments`; its standard error goes to `stderrPath` (nil: shared with ours).
    init(executable: String, arguments: [String], stderrPath: String?) throws(ThumbnailError) {
        // Close-on-exec: only the two ends dup2'ed below reach the worker, not every worker's pipes.
        let toWorker: (requests: LocalSocket, workerInput: LocalSocket), fromWorker: SystemPipe
        do throws(FileSystemError) {
            toWorker = try LocalSocket.pair()
            do throws(FileSystemError) {
                fromWorker = try SystemPipe.make()
            } catch {
                toWorker.requests.close(); toWorker.workerInput.close()
                throw error
            }
        } catch {
            throw Self.spawnError(executable, error.errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toWorker.workerInput.fd, 0)
        posix_spawn_file_actions_adddup2(&actions, fromWorker.writeEnd, 1)
        // Inherited on purpose: the worker's standard error (the child opens it, so no CLOEXEC).
        if let stderrPath { posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_APPEND | O_CREAT, 0o600) }
        // Nothing else of the caller's (a pipe a library opened without close-on-exec) lives on in a worker.
        SpawnActions.closeOthers(&actions)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, argv[0]!, &actions, nil, argv, ProcessEnvironment.spawnEnvironment)
        toWorker.workerInput.close()
        close(fromWorker.writeEnd)
        guard status == 0 else {
            toWorker.requests.close(); close(fromWorker.readEnd)
            throw Self.spawnError(executable, status)
        }
        let spawned = child
        pid = spawned
        requests = toWorker.requests
        let replyFD = fromWorker.readEnd
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        events = stream
        let reaping = self.reaping
        DispatchQueue(label: "qlbrowse.worker.\(spawned)").async {
            while true {
                let frame: WorkerFrame?
                do { frame = try FrameCodec.read(from: replyFD) } catch { frame = nil }
                guard let frame else { break }
                do throws(WorkerCodecError) {
                    continuation.yield(.reply(WorkerReply(answer: try WorkerCodec.answer(in: frame), frame: frame)))
                } catch {
                    continuation.yield(.malformed(id: frame.id, error))
                }
            }
            close(replyFD)
            let raw = SystemCall.waitForExit(spawned)
            reaping.open()
            continuation.yield(.exited(ExitStatus(raw: raw)))
            continuation.finish()
        }
    }

    /// Sends one frame; false when the worker is gone.
    @discardableResult
    func send(_ frame: WorkerFrame) -> Bool {
        do {
            try FrameCodec.write(frame, to: requests)
            return true
        } catch {
            return false
        }
    }

    func kill() { _ = Glibc.kill(pid, SIGKILL) }

    /// Returns once the process has ended and been reaped (at once if it already was).
    func waitForExit() async { await reaping.wait() }

    /// Closes the requests' channel: the worker finishes what it is doing and exits.
    func closeRequests() { requests.close() }

    private static func spawnError(_ executable: String, _ code: Int32) -> ThumbnailError {
        ThumbnailError(.workerUnavailable, "cannot start the thumbnail worker \(executable): \(String(cString: strerror(code)))")
    }
}

/// A one-way gate: `wait()` returns once `open()` has been called, at once if it already was.
private final class ExitLatch: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(waiter) }
                return state.isOpen
            }
            if isOpen { waiter.resume() }
        }
    }
}

/// How a worker process ended, in words a user understands.
struct ExitStatus: Sendable, CustomStringConvertible {
    let raw: Int32

    var signal: Int32? { (raw & 0x7f) != 0 && (raw & 0x7f) != 0x7f ? raw & 0x7f : nil }
    var code: Int32 { (raw >> 8) & 0xff }

    var description: String {
        guard let signal else { return "exited with status \(code)" }
        switch signal {
        case SIGSEGV: return "crashed (segmentation fault)"
        case SIGBUS: return "crashed (bus error)"
        case SIGABRT: return "aborted (often: out of memory under the worker's limit)"
        case SIGFPE: return "crashed (arithmetic error)"
        case SIGILL: return "crashed (illegal instruction)"
        case SIGXCPU: return "used more CPU time than allowed"
        case SIGKILL: return "was killed"
        default: return "died from signal \(signal)"
        }
    }
}
