#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ThumbnailKit

/// The codec of the remote protocol, at both ends (`RemoteConnection` and `RemoteServer`). The
/// framing is the workers' (`FrameCodec`, `WorkerFrame`: two lengths, a 64-bit request id, a JSON
/// header, a binary payload); the header holds a `RemoteRequest` or a `RemoteAnswer`.
package enum RemoteCodec {
    /// The protocol's version: raised whenever a request or an answer changes shape. Both sides
    /// say theirs in the hello, and a mismatch is named, never guessed through.
    package static let version = 7

    /// The frame of `request` for request `id`, with its payload (a write's bytes).
    package static func frame(_ request: RemoteRequest, id: UInt64, payload: [UInt8] = []) -> WorkerFrame {
        WorkerFrame(id: id, header: encode(request), payload: payload)
    }

    /// The frame of `answer` for request `id`, with its payload.
    package static func frame(_ answer: RemoteAnswer, id: UInt64, payload: [UInt8] = []) -> WorkerFrame {
        WorkerFrame(id: id, header: encode(answer), payload: payload)
    }

    /// The request a frame holds.
    package static func request(in frame: WorkerFrame) throws(WorkerCodecError) -> RemoteRequest {
        try decode(frame.header, naming: "request")
    }

    /// The answer a frame holds (its payload stays in the frame).
    package static func answer(in frame: WorkerFrame) throws(WorkerCodecError) -> RemoteAnswer {
        try decode(frame.header, naming: "answer")
    }

    /// The hello in a frame, whatever else this build can read of the other side's protocol:
    /// the one shape every version keeps (`{"hello": {"version": N, …}}`).
    package static func hello(in frame: WorkerFrame) -> RemoteHello? {
        struct Hello: Decodable { var hello: RemoteHello }
        return try? JSONDecoder().decode(Hello.self, from: Data(frame.header)).hello
    }

    private static func encode(_ value: some Encodable) -> [UInt8] {
        // Plain data (strings, numbers, arrays): encoding cannot fail.
        (try? JSONEncoder().encode(value)).map { [UInt8]($0) } ?? []
    }

    private static func decode<Value: Decodable>(_ header: ArraySlice<UInt8>, naming what: String) throws(WorkerCodecError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(header))
        } catch {
            throw .malformed(what: what, detail: "\(error)")
        }
    }
}
