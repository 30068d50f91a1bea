#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The framing on the worker pipes: `[u32 header length][u32 payload length][JSON header][payload]`,
/// lengths little-endian. Small, debuggable, and bounded (a frame larger than `maximumFrame` is refused).
package enum FrameCodec {
    package static let maximumHeader = 1 << 20
    package static let maximumPayload = 1 << 28

    package static func encode(_ message: WorkerMessage, payload: [UInt8] = []) -> [UInt8] {
        let header = (try? JSONEncoder().encode(message)).map { [UInt8]($0) } ?? []
        var frame = [UInt8]()
        frame.reserveCapacity(8 + header.count + payload.count)
        appendLittleEndian(UInt32(header.count), to: &frame)
        appendLittleEndian(UInt32(payload.count), to: &frame)
        frame.append(contentsOf: header)
        frame.append(contentsOf: payload)
        return frame
    }

    /// Reads one frame from a file descriptor, blocking. Returns nil at end of file.
    package static func read(from fd: Int32) throws(FrameError) -> (WorkerMessage, [UInt8])? {
        var lengths = [UInt8](repeating: 0, count: 8)
        guard try readExactly(fd, into: &lengths, allowEOF: true) else { return nil }
        let headerLength = Int(littleEndian(lengths, at: 0))
        let payloadLength = Int(littleEndian(lengths, at: 4))
        guard headerLength <= maximumHeader, payloadLength <= maximumPayload else { throw .oversized }
        var header = [UInt8](repeating: 0, count: headerLength)
        _ = try readExactly(fd, into: &header, allowEOF: false)
        var payload = [UInt8](repeating: 0, count: payloadLength)
        if payloadLength > 0 { _ = try readExactly(fd, into: &payload, allowEOF: false) }
        guard let message = try? JSONDecoder().decode(WorkerMessage.self, from: Data(header)) else { throw .malformed }
        return (message, payload)
    }

    /// Writes a whole frame, retrying on EINTR and short writes.
    package static func write(_ frame: [UInt8], to fd: Int32) throws(FrameError) {
        guard FileDescriptorWriter.writeAll(frame, to: fd) else { throw .closed }
    }

    /// Reads one frame like `read(from:)`, but gives up (`.closed`) when none starts within
    /// `milliseconds`: for a handshake with a process that may be hung.
    package static func read(from socket: LocalSocket, waitingUpTo milliseconds: Int32) throws(FrameError) -> (WorkerMessage, [UInt8])? {
        guard socket.waitReadable(milliseconds: milliseconds) else { throw .closed }
        return try read(from: socket.fd)
    }

    private static func readExactly(_ fd: Int32, into buffer: inout [UInt8], allowEOF: Bool) throws(FrameError) -> Bool {
        var done = 0
        let count = buffer.count
        while done < count {
            let result = SystemCall.retryingInterrupts { buffer.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + done, count - done) } }
            if result < 0 { throw .closed }
            if result == 0 {
                if done == 0 && allowEOF { return false }
                throw .truncated
            }
            done += result
        }
        return true
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xff)) }
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32($1 * 8) }
    }
}

/// Why a frame could not be read or written.
package enum FrameError: Error, Sendable {
    case closed, truncated, oversized, malformed
}
