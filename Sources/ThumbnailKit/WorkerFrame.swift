/// One frame on a worker pipe or a service connection, as bytes: the fixed head (the two lengths
/// and the request id), the JSON header, then the binary payload (`FrameCodec` says the layout).
///
/// The request id sits in the head, outside the JSON, so the service can hand a worker's frame
/// to its client under the client's id by patching eight bytes (`id`'s setter), without decoding
/// or encoding anything else. `WorkerCodec` says what the header means.
package struct WorkerFrame: Sendable, Equatable {
    /// The lengths, the id and the JSON header (`FrameCodec.headSize` + header bytes).
    package private(set) var head: [UInt8]
    /// The binary payload: pixels, text, a JSON listing; empty for most frames.
    package let payload: [UInt8]

    /// A frame of `header` (JSON) and `payload` for request `id`.
    package init(id: UInt64, header: [UInt8], payload: [UInt8] = []) {
        var head = [UInt8]()
        head.reserveCapacity(FrameCodec.headSize + header.count)
        FrameCodec.appendLittleEndian(UInt64(header.count), bytes: 4, to: &head)
        FrameCodec.appendLittleEndian(UInt64(payload.count), bytes: 4, to: &head)
        FrameCodec.appendLittleEndian(id, bytes: 8, to: &head)
        head.append(contentsOf: header)
        self.head = head
        self.payload = payload
    }

    /// A frame as read: `head` checked by `FrameCodec` to hold the lengths, the id and the header.
    init(head: [UInt8], payload: [UInt8]) {
        self.head = head
        self.payload = payload
    }

    /// The request the frame belongs to; setting it rewrites those eight bytes and nothing else.
    package var id: UInt64 {
        get { FrameCodec.littleEndian(head, at: 8, bytes: 8) }
        set {
            for index in 0..<8 { head[8 + index] = UInt8(truncatingIfNeeded: newValue >> UInt64(index * 8)) }
        }
    }

    /// The JSON header.
    package var header: ArraySlice<UInt8> { head[FrameCodec.headSize...] }

    /// The whole frame as it goes on the wire.
    package var bytes: [UInt8] { head + payload }
}
