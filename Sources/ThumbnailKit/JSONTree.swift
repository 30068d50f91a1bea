/// A JSON text read into plain values, and written back: for the protocol headers a short call
/// sends and reads (`WorkerHeaderShortcut`). Foundation's Codable JSON costs a one-call client
/// about 8 M instructions, most of it the first use of its generic containers (the runtime scans
/// every protocol conformance in the binary for each); this reader and writer use none.
/// Objects keep their members in order, as pairs, and numbers keep their text.
package enum JSONTree: Equatable, Sendable {
    case object([(key: String, value: JSONTree)])
    case array([JSONTree])
    case string(String)
    /// The number as written (`-12`, `2.5e-3`), read as the caller needs it.
    case number(String)
    case bool(Bool)
    case null

    package static func == (left: JSONTree, right: JSONTree) -> Bool {
        switch (left, right) {
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The member `key` of an object (the first, if repeated); nil for a missing key or not an object.
    package subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    package var string: String? { if case .string(let text) = self { text } else { nil } }
    package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    package var int: Int? { if case .number(let text) = self { Int(text) } else { nil } }
    package var int64: Int64? { if case .number(let text) = self { Int64(text) } else { nil } }
    package var double: Double? { if case .number(let text) = self { Double(text) } else { nil } }
    package var array: [JSONTree]? { if case .array(let items) = self { items } else { nil } }
    /// The members of an object, in order.
    package var members: [(key: String, value: JSONTree)]? { if case .object(let members) = self { members } else { nil } }

    /// The value `bytes` hold, or nil when they are not one JSON value (trailing text included).
    package static func parse(_ bytes: some Collection<UInt8>) -> JSONTree? {
        var reader = JSONReader(Array(bytes))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.atEnd ? value : nil
    }

    /// The JSON text of this value, compact.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONTree.string(member.key).write(to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text): JSONReader.appendQuoted(text, to: &out)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    /// A number for `value`, or nil when JSON cannot hold it (infinite, not a number).
    package static func number(_ value: Double) -> JSONTree? {
        value.isFinite ? .number(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description) : nil
    }

    package static func number(_ value: Int) -> JSONTree { .number(String(value)) }
}
