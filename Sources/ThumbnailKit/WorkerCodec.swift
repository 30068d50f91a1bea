#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one codec of the worker and service protocol, used at every end: the pool and the worker,
/// the service and its client. A frame (`WorkerFrame`) holds a `WorkerRequest` with its
/// `WorkerDeadline`, or a `WorkerAnswer` with its payload, as JSON in the header; the request id
/// is in the frame's head; the headers of a short call skip Codable (`WorkerHeaderShortcut`), in
/// the same JSON. The service passes worker frames on to its client without this codec:
/// it only rewrites the id (`WorkerFrame.id`).
package enum WorkerCodec {
    /// The frame of `request` for request `id`.
    package static func frame(_ request: WorkerRequest, id: UInt64, deadline: WorkerDeadline = WorkerDeadline()) -> WorkerFrame {
        let given = deadline == WorkerDeadline() ? nil : deadline
        return WorkerFrame(id: id, header: WorkerHeaderShortcut.header(request, deadline: given) ?? encode(RequestHeader(request: request, deadline: given)))
    }

    /// The frame of `answer` for request `id`, with its payload (pixels, text, a JSON listing).
    package static func frame(_ answer: WorkerAnswer, id: UInt64, payload: [UInt8] = []) -> WorkerFrame {
        WorkerFrame(id: id, header: WorkerHeaderShortcut.header(answer) ?? encode(answer), payload: payload)
    }

    /// The frame that ends request `id` with `error` (a cancellation too): a `failure`.
    package static func failureFrame(id: UInt64, error: Error) -> WorkerFrame {
        let failure = error as? ThumbnailError ?? ThumbnailError(error is CancellationError ? .cancelled : .crashed, "\(error)")
        return frame(.failure(WorkerAnswer.Failure(failure)), id: id)
    }

    /// The request a frame holds, and the deadline it came with.
    package static func request(in frame: WorkerFrame) throws(WorkerCodecError) -> (WorkerRequest, WorkerDeadline) {
        if let (request, deadline) = WorkerHeaderShortcut.request(in: frame.header) { return (request, deadline ?? WorkerDeadline()) }
        let header: RequestHeader = try decode(frame.header, naming: "request", casesUnder: "request")
        return (header.request, header.deadline ?? WorkerDeadline())
    }

    /// The answer a frame holds (its payload stays in the frame).
    package static func answer(in frame: WorkerFrame) throws(WorkerCodecError) -> WorkerAnswer {
        if let answer = WorkerHeaderShortcut.answer(in: frame.header) { return answer }
        return try decode(frame.header, naming: "answer", casesUnder: nil)
    }

    /// The header of a request frame: the request and, when it has one, its deadline.
    private struct RequestHeader: Codable {
        var request: WorkerRequest
        var deadline: WorkerDeadline?
    }

    private static func encode(_ value: some Encodable) -> [UInt8] {
        // Every value here is plain data (strings, numbers, arrays): encoding cannot fail.
        (try? JSONEncoder().encode(value)).map { [UInt8]($0) } ?? []
    }

    /// Decodes a header; when that fails, says why in words, naming a case this build does not
    /// know (`casesUnder`: the key the enum sits under, nil for the top level).
    private static func decode<Value: Decodable>(_ header: ArraySlice<UInt8>, naming what: String,
                                                 casesUnder key: String?) throws(WorkerCodecError) -> Value {
        let data = Data(header)
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            // A case this build does not know fails at the enum's own level, with one key there;
            // a known case with a bad payload fails deeper.
            let keys = try? JSONDecoder().decode(HeaderKeys.self, from: data)
            let cases = key.map { keys?.nested[$0] } ?? keys?.keys
            if let cases, cases.count == 1, codingDepth(of: error) == (key == nil ? 0 : 1) {
                throw .unknownCase(what: what, name: cases[0])
            }
            throw .malformed(what: what, detail: "\(error)")
        }
    }

    private static func codingDepth(of error: Error) -> Int? {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.count
        default:
            nil
        }
    }
}

/// Why a frame's header could not be read.
package enum WorkerCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A kind of request or answer this build does not know (from another build).
    case unknownCase(what: String, name: String)
    /// Not the JSON this build writes.
    case malformed(what: String, detail: String)

    package var description: String {
        switch self {
        case .unknownCase(let what, let name): "unknown \(what) “\(name)”"
        case .malformed(let what, let detail): "malformed \(what): \(detail)"
        }
    }
}

/// The keys of a JSON object and of the objects under it, whatever their values: to name the
/// case a header asked for when decoding it failed.
private struct HeaderKeys: Decodable {
    let keys: [String]
    let nested: [String: [String]]

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        keys = container.allKeys.map(\.stringValue)
        var nested: [String: [String]] = [:]
        for key in container.allKeys {
            if let inner = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: key) {
                nested[key.stringValue] = inner.allKeys.map(\.stringValue)
            }
        }
        self.nested = nested
    }
}
