internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// A Unix stream socket (close-on-exec), listening or connected, with the calls a local service
/// and its clients need: bind and listen on a path, connect, accept, the peer's credentials,
/// writes that never raise SIGPIPE, and waiting for input with a timeout.
public struct LocalSocket: Sendable, Equatable {
    /// The descriptor; `close()` releases it.
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    /// A socket listening on `path` (which must not exist), readable and writable by the owner only.
    public static func listen(at path: String, backlog: Int32 = 64) throws(FileSystemError) -> LocalSocket {
        let socket = try make(path: path)
        do throws(FileSystemError) {
            _ = try SystemCall.run("bind", path: path) { path.withFileSystemRepresentation { CSystem_unix_bind(socket.fd, $0) } }
            _ = try SystemCall.run("chmod", path: path) { chmod(path, 0o600) }
            _ = try SystemCall.run("listen", path: path) { Glibc.listen(socket.fd, backlog) }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// A socket connected to the one listening on `path` (ENOENT or ECONNREFUSED when none is).
    public static func connect(to path: String) throws(FileSystemError) -> LocalSocket {
        let socket = try make(path: path)
        do throws(FileSystemError) {
            _ = try SystemCall.run("connect", path: path) { path.withFileSystemRepresentation { CSystem_unix_connect(socket.fd, $0) } }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Two sockets connected to each other: a channel to a child process (one end becomes its
    /// standard input) that the parent writes with `send`, which never raises SIGPIPE when the
    /// child is gone, as a pipe's write would.
    public static func pair() throws(FileSystemError) -> (LocalSocket, LocalSocket) {
        var fds: [Int32] = [-1, -1]
        _ = try SystemCall.run("socketpair") { CSystem_unix_socket_pair(&fds) }
        return (LocalSocket(fd: fds[0]), LocalSocket(fd: fds[1]))
    }

    private static func make(path: String) throws(FileSystemError) -> LocalSocket {
        LocalSocket(fd: try SystemCall.run("socket", path: path) { CSystem_unix_socket() })
    }

    /// The next connection (blocks unless `waitReadable` said one is there).
    public func accept() throws(FileSystemError) -> LocalSocket {
        LocalSocket(fd: try SystemCall.run("accept") { CSystem_accept(fd) })
    }

    /// Who is at the other end.
    public func peer() throws(FileSystemError) -> PeerCredentials {
        var peer = CSystem_peer()
        _ = try SystemCall.run("getsockopt") { CSystem_peer_credentials(fd, &peer) }
        return PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid)
    }

    /// Writes every byte (EINTR and short writes retried); false when the peer is gone. Never SIGPIPE.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        FileDescriptorWriter.writeAll(bytes, to: fd) { fd, start, count in CSystem_send(fd, start, UInt(count)) }
    }

    /// Waits until there is something to read (a connection, bytes, or the end) or `milliseconds`
    /// pass; true when there is.
    public func waitReadable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return SystemCall.retryingInterrupts { poll(&entry, 1, milliseconds) } > 0
    }

    /// Ends both directions: a thread blocked reading it wakes up with the end of the stream.
    public func shutDown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    public func close() { _ = Glibc.close(fd) }
}
