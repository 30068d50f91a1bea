#if canImport(Glibc)
import Glibc
#endif

/// The process at the other end of a Unix socket, as the kernel recorded it when the connection
/// was made (SO_PEERCRED): it cannot be forged by the peer.
public struct PeerCredentials: Sendable, Equatable {
    public let pid: pid_t
    public let uid: uid_t
    public let gid: gid_t

    public init(pid: pid_t, uid: uid_t, gid: gid_t) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Whether the peer runs as this process's effective user.
    public var isOurUser: Bool { uid == geteuid() }
}
