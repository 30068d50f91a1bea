import Dispatch
import Synchronization
import SystemKit
import ThumbnailKit

/// The requests' way out to the remote process: frames are queued and written, in order, by a
/// thread of its own, so that no caller ever blocks on the link. On a link gone silent (100 %
/// loss: ssh stops reading its input once its channel window is spent) a write blocks for as
/// long as the silence lasts; written from the caller, it would hold a cooperative thread and
/// keep a deadline's cancel from ever being sent — the request's give-up with it.
final class RemoteFrameWriter: Sendable {
    private struct State {
        var queue: [WorkerFrame] = []
        var closed = false
    }

    private let socket: LocalSocket
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let name: String

    /// A writer to `socket`, which it owns from now on (and closes when it ends).
    init(_ socket: LocalSocket, name: String) {
        self.socket = socket
        self.name = name
    }

    /// Starts writing; `failed` is called once when a write fails (the process ended).
    func start(failed: @escaping @Sendable () -> Void) {
        DispatchQueue(label: "qlbrowse.remote.writer.\(name)").async { [self] in run(failed: failed) }
    }

    /// Queues `frame`; false when the writer was closed (nothing will be written).
    @discardableResult
    func enqueue(_ frame: WorkerFrame) -> Bool {
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.queue.append(frame)
            return true
        }
        if open { ready.signal() }
        return open
    }

    /// Bytes queued and not yet written (a silent link's backlog).
    var backlog: Int { state.withLock { $0.queue.reduce(0) { $0 + $1.head.count + $1.payload.count } } }

    /// Stops writing: what is queued is dropped, a write blocked on the link wakes up (the
    /// socket is shut down), and the remote sees its input end.
    func close() {
        let wasOpen = state.withLock { state -> Bool in
            defer { state.closed = true; state.queue.removeAll() }
            return !state.closed
        }
        guard wasOpen else { return }
        socket.shutDown()
        ready.signal()
    }

    private func run(failed: @Sendable () -> Void) {
        while true {
            ready.wait()
            let (next, closed) = state.withLock { state -> (WorkerFrame?, Bool) in
                state.closed ? (nil, true) : (state.queue.isEmpty ? nil : state.queue.removeFirst(), false)
            }
            if closed { break }
            guard let next else { continue }
            do throws(FrameError) {
                try FrameCodec.write(next, to: socket)
            } catch {
                state.withLock { $0.closed = true; $0.queue.removeAll() }
                failed()
                break
            }
        }
        socket.close()
    }
}
