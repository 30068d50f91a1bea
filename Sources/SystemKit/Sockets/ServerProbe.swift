import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Asks whether a server's port takes connections before anything is mounted from it, so that
/// the three failures that have nothing to do with the protocol are told apart and said plainly,
/// whatever tool then mounts: the name does not resolve, the port refuses, nothing answers.
public enum ServerProbe {
    /// What a TCP connection to the server found.
    public enum Answer: Sendable, Equatable {
        case reachable
        /// The host name does not resolve.
        case unknownHost
        /// The host answered that nothing listens on the port.
        case refused
        /// Nothing answered within the deadline (or the network has no route to it).
        case noAnswer
        /// The caller gave up (Esc).
        case cancelled
    }

    /// Connects to `host`:`port` (every address it resolves to, in turn) within `seconds`.
    public static func connect(host: String, port: Int, seconds: Double, cancel: CancelSignal? = nil) -> Answer {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(bare, String(port), &hints, &list) == 0, let first = list else { return .unknownHost }
        defer { freeaddrinfo(list) }
        let deadline = now() + seconds
        var answer = Answer.noAnswer, entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            // SOCK_NONBLOCK and SOCK_CLOEXEC are O_NONBLOCK and O_CLOEXEC on Linux; the release build did not see the SOCK_ names.
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | O_NONBLOCK | O_CLOEXEC, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return .reachable }
            guard errno == EINPROGRESS else { if errno == ECONNREFUSED { answer = .refused }; continue }
            while now() < deadline {
                if cancel?.isCancelled == true { return .cancelled }
                var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&pending, 1, 50) != 0 else { continue }
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
                if failure == 0 { return .reachable }
                if failure == ECONNREFUSED { answer = .refused }
                break
            }
        }
        return answer
    }

    private static func now() -> Double { Double(SystemTime.now()) / 1e9 }
}
