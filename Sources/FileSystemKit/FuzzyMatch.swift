/// Finding names as fzf and fd users expect: the query's characters in order anywhere in the
/// path (`hol23` finds `holiday/2023/beach.jpg`), smart case (case matters only when the query
/// has a capital), best first: matches in the file's own name, together, early, in short paths.
public struct FuzzyMatch: Sendable {
    public let query: [UInt8]
    private let caseSensitive: Bool

    public init(_ query: String) {
        self.query = Array(query.utf8)
        caseSensitive = query.contains { $0.isUppercase }
    }

    /// The match's cost (lower is better), or nil when `path` (UTF-8, relative to the search's
    /// root) does not hold the query's characters in order.
    public func cost(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !query.isEmpty else { return path.count }
        let nameStart = (path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 }) ?? 0
        // Tried first in the name alone, where a person looks; then across the whole path.
        if let inName = cost(path, from: nameStart) { return inName }
        return cost(path, from: 0).map { $0 + 10_000 }
    }

    public func cost(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 { cost($0) }
    }

    private func cost(_ path: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var position = start, first = -1, gaps = 0, last = -1
        for wanted in query {
            let target = caseSensitive ? wanted : Self.lowered(wanted)
            while position < path.count, (caseSensitive ? path[position] : Self.lowered(path[position])) != target { position += 1 }
            guard position < path.count else { return nil }
            if first < 0 { first = position } else { gaps += position - last - 1 }
            last = position
            position += 1
        }
        return gaps * 16 + (first - start) * 2 + path.count
    }

    @inline(__always) private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }
}
