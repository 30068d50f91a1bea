import SystemKit
/// Paths found by a walk, packed: their UTF-8 bytes one after the other and where each ends.
/// A million paths take their bytes and four more each, not a million strings.
public struct PathChunk: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int32] = []

    public init() {}

    public var count: Int { ends.count }
    public var isEmpty: Bool { ends.isEmpty }

    /// Adds `folder` + "/" + the NUL-terminated `name` ("" folder: the name alone).
    mutating func append(folder: [UInt8], name: UnsafePointer<CChar>, length: Int) {
        if !folder.isEmpty {
            bytes.append(contentsOf: folder)
            bytes.append(UInt8(ascii: "/"))
        }
        name.withMemoryRebound(to: UInt8.self, capacity: length) { bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
        ends.append(Int32(bytes.count))
    }

    /// The path at `index` as a string.
    public func path(_ index: Int) -> String { withPath(index) { String(fileSystemBytes: $0) } }

    /// Calls `body` with the bytes of the path at `index`.
    public func withPath<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = index == 0 ? 0 : Int(ends[index - 1]), end = Int(ends[index])
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }
}
