import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A user-space link between ssh and the loopback sshd (this kernel has no `sch_netem`): a TCP
/// relay on a loopback port of its own that forwards each connection to the server, and that
/// can be told to black-hole it — forward nothing either way while both sockets stay open, which
/// is what 100 % loss looks like to the endpoints (no reset, no end, only silence; what was in
/// flight waits, as TCP would retransmit it) — and later to heal, when what waited goes through.
final class LinkRelay: @unchecked Sendable {
    let port: Int
    private let target: Int
    private let listener: Int32
    private let silent = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let armed = Atomic<Bool>(false)
    private let silentSince = Mutex<Date?>(nil)
    private let sockets = Mutex<[Int32]>([])
    /// Bytes that crossed, each way (client to server, server to client).
    let forwarded = Atomic<Int>(0)

    /// A relay to the server listening on `target` (127.0.0.1); nil when no port could be had.
    init?(to target: Int) {
        self.target = target
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0
        guard bound, Glibc.listen(fd, 16) == 0 else { close(fd); return nil }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// From now on nothing crosses, either way; the connections stay open.
    func blackHole() {
        silent.store(true, ordering: .relaxed)
        silentSince.withLock { $0 = $0 ?? Date() }
    }

    /// Lets the next bytes from the client (a request) reach the server, and black-holes the
    /// link as they go: the request is on the remote, its answer is not coming.
    func blackHoleAfterNextRequest() { armed.store(true, ordering: .relaxed) }

    /// When the link last went silent (nil: not yet).
    var silentAt: Date? { silentSince.withLock { $0 } }

    /// What waited goes through, and everything after it.
    func heal() {
        silentSince.withLock { $0 = nil }
        silent.store(false, ordering: .relaxed)
    }

    /// Closes the listener and every connection.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in sockets.withLock({ $0 }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
            guard connected else { close(client); close(server); continue }
            sockets.withLock { $0 += [client, server] }
            // The second pump to end closes both sockets.
            let ended = PumpsEnded()
            let finish: @Sendable () -> Void = { [self] in
                guard ended.count.add(1, ordering: .relaxed).newValue == 2 else { return }
                sockets.withLock { $0.removeAll { $0 == client || $0 == server } }
                close(client)
                close(server)
            }
            Thread.detachNewThread { [self] in pump(from: client, to: server, request: true); finish() }
            Thread.detachNewThread { [self] in pump(from: server, to: client, request: false); finish() }
        }
    }

    /// Forwards `from` to `to` until either ends; a chunk read while the link is silent waits
    /// (and nothing more is read) until it heals.
    private func pump(from: Int32, to: Int32, request: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            while silent.load(ordering: .relaxed) && !stopped.load(ordering: .relaxed) { usleep(20_000) }
            let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            // Silent before this chunk reaches the server: its answer cannot slip through.
            if request && armed.exchange(false, ordering: .relaxed) {
                blackHole()
            } else {
                while silent.load(ordering: .relaxed) && !stopped.load(ordering: .relaxed) { usleep(20_000) }
            }
            var sent = 0
            while sent < count {
                // send, not write: a peer gone must not raise SIGPIPE in the test process.
                let wrote = buffer.withUnsafeBytes { send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { break }
                sent += wrote
            }
            guard sent == count else { break }
            forwarded.add(count, ordering: .relaxed)
        }
        // One side ended: the other hears it (half-close), as TCP would pass a FIN on.
        shutdown(to, Int32(SHUT_WR))
        shutdown(from, Int32(SHUT_RD))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}

/// How many of a connection's two pumps have ended.
private final class PumpsEnded: Sendable {
    let count = Atomic<Int>(0)
}
