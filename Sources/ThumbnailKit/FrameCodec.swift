import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The framing on the worker pipes and the service's socket:
/// `[u32 header length][u32 payload length][u64 request id][JSON header][payload]`, numbers
/// little-endian. Small, debuggable, and bounded (a frame larger than the maximums is refused).
/// The id is outside the JSON so a frame can be passed on under another id unchanged otherwise
/// (`WorkerFrame.id`); what the JSON says is `WorkerCodec`'s business.
package enum FrameCodec {
    package static let maximumHeader = 1 << 20
    package static let maximumPayload = 1 << 28
    /// The lengths and the id.
    package static let headSize = 16

    /// Reads one frame from a file descriptor, blocking. Returns nil at end of file.
    package static func read(from fd: Int32) throws(FrameError) -> WorkerFrame? {
        var head = [UInt8](repeating: 0, count: 8)
        guard try readExactly(fd, into: &head, from: 0, allowEOF: true) else { return nil }
        let headerLength = Int(littleEndian(head, at: 0, bytes: 4))
        let payloadLength = Int(littleEndian(head, at: 4, bytes: 4))
        guard headerLength <= maximumHeader, payloadLength <= maximumPayload else { throw .oversized }
        head += [UInt8](repeating: 0, count: 8 + headerLength)
        _ = try readExactly(fd, into: &head, from: 8, allowEOF: false)
        var payload = [UInt8](repeating: 0, count: payloadLength)
        if payloadLength > 0 { _ = try readExactly(fd, into: &payload, from: 0, allowEOF: false) }
        return WorkerFrame(head: head, payload: payload)
    }

    /// Writes a whole frame, retrying on EINTR and short writes.
    package static func write(_ frame: WorkerFrame, to fd: Int32) throws(FrameError) {
        guard FileDescriptorWriter.writeAll(frame.head, to: fd),
              frame.payload.isEmpty || FileDescriptorWriter.writeAll(frame.payload, to: fd) else { throw .closed }
    }

    /// Writes `frame` to a socket, never raising SIGPIPE when the other end is gone.
    package static func write(_ frame: WorkerFrame, to socket: LocalSocket) throws(FrameError) {
        guard socket.send(frame.head), frame.payload.isEmpty || socket.send(frame.payload) else { throw .closed }
    }

    /// Writes bytes as they are (a test's truncated or forged frame).
    package static func write(_ bytes: [UInt8], to fd: Int32) throws(FrameError) {
        guard FileDescriptorWriter.writeAll(bytes, to: fd) else { throw .closed }
    }

    /// Reads one frame like `read(from:)`, but gives up (`.closed`) when none starts within
    /// `milliseconds`: for a handshake with a process that may be hung.
    package static func read(from socket: LocalSocket, waitingUpTo milliseconds: Int32) throws(FrameError) -> WorkerFrame? {
        guard socket.waitReadable(milliseconds: milliseconds) else { throw .closed }
        return try read(from: socket.fd)
    }

    private static func readExactly(_ fd: Int32, into buffer: inout [UInt8], from start: Int, allowEOF: Bool) throws(FrameError) -> Bool {
        var done = start
        let count = buffer.count
        while done < count {
            let result = SystemCall.retryingInterrupts { buffer.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + done, count - done) } }
            if result < 0 { throw .closed }
            if result == 0 {
                if done == start && allowEOF { return false }
                throw .truncated
            }
            done += result
        }
        return true
    }

    static func appendLittleEndian(_ value: UInt64, bytes count: Int, to bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8))) }
    }

    static func littleEndian(_ bytes: [UInt8], at offset: Int, bytes count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64($1 * 8) }
    }
}

/// Why a frame could not be read or written.
package enum FrameError: Error, Sendable {
    case closed, truncated, oversized, malformed
}
