/// The content rules of shared-mime-info's compiled `magic` files, and their matching.
///
/// The file is `MIME-Magic\0\n`, then sections `[priority:type]\n`, each followed by rules
/// `[indent]>offset=<2-byte big-endian length><value>[&<mask>][~word-size][+range-length]\n`.
/// A rule with a deeper indent is only tried when the rule above it matched; a section matches
/// when one of its top-level rules matches together with (when it has any) one of its children.
/// Reads are bounded: a rule never looks past `extent` bytes, and callers pass at most that.
struct MimeMagic: Sendable {
    struct Rule: Sendable {
        let indent: Int
        let offset: Int
        let value: [UInt8]
        let mask: [UInt8]?
        let range: Int

        /// Whether the value appears at one of the `range` positions from `offset`.
        func matches(_ data: [UInt8]) -> Bool {
            guard !value.isEmpty else { return false }
            let last = min(offset + range - 1, data.count - value.count)
            guard last >= offset else { return false }
            for start in offset...last where fits(data, at: start) { return true }
            return false
        }

        private func fits(_ data: [UInt8], at start: Int) -> Bool {
            if let mask {
                for index in value.indices where data[start + index] & mask[index] != value[index] & mask[index] { return false }
            } else {
                for index in value.indices where data[start + index] != value[index] { return false }
            }
            return true
        }
    }

    struct Section: Sendable {
        let priority: Int
        let type: String
        let rules: [Rule]

        func matches(_ data: [UInt8]) -> Bool { Self.level(rules, from: 0, indent: 0, data) }

        /// The rules at `indent` starting at `start`: one matches with (when it has any) a matching child.
        private static func level(_ rules: [Rule], from start: Int, indent: Int, _ data: [UInt8]) -> Bool {
            var index = start
            while index < rules.count, rules[index].indent == indent {
                if rules[index].matches(data) {
                    let next = index + 1
                    if next == rules.count || rules[next].indent <= indent { return true }
                    if level(rules, from: next, indent: indent + 1, data) { return true }
                }
                index += 1
                while index < rules.count, rules[index].indent > indent { index += 1 }
            }
            return false
        }
    }

    /// Sections, highest priority first (file order within a priority).
    private(set) var sections: [Section] = []
    /// How many leading bytes of a file the rules can look at.
    private(set) var extent = 0
    /// Types whose rules from less important directories are ignored (`__NOMAGIC__`).
    private var blocked: Set<String> = []

    init() {}

    /// Adds one directory's `magic` file; call most important directory first. A file that is not
    /// magic is ignored; a damaged one contributes the sections before the damage.
    mutating func add(magic bytes: [UInt8]) {
        var parsed = MagicParser(bytes)
        guard parsed.readHeader() else { return }
        var blockedHere: Set<String> = []
        while let (priority, type, rules, noMagic) = parsed.nextSection() {
            if noMagic { blockedHere.insert(type) }
            guard !blocked.contains(type), !rules.isEmpty else { continue }
            sections.append(Section(priority: priority, type: type, rules: rules))
            for rule in rules { extent = max(extent, rule.offset + rule.range - 1 + rule.value.count) }
        }
        blocked.formUnion(blockedHere)
        // Stable: equal priorities keep directory and file order.
        sections = sections.enumerated().sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }.map(\.element)
    }

    /// The type of the highest-priority matching section. Among sections of that priority, one
    /// whose type is in `preferring` (the name's glob candidates) wins.
    func match(_ data: [UInt8], preferring: [String] = []) -> (type: String, priority: Int)? {
        var best: Section?
        for section in sections {
            if let best, section.priority < best.priority { break }
            guard section.matches(data) else { continue }
            if best == nil { best = section }
            if preferring.contains(section.type) { return (section.type, section.priority) }
        }
        return best.map { ($0.type, $0.priority) }
    }

    /// Every type with a matching section, highest priority first.
    func allMatches(_ data: [UInt8]) -> [String] {
        sections.filter { $0.matches(data) }.map(\.type)
    }
}

/// A cursor over a compiled `magic` file.
private struct MagicParser {
    private let bytes: [UInt8]
    private var position = 0
    /// Limits that keep a hostile file from asking for absurd reads.
    private static let maximumOffset = 1 << 20, maximumRange = 1 << 16, maximumValue = 1 << 12

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func readHeader() -> Bool {
        let header = Array("MIME-Magic\0\n".utf8)
        guard bytes.starts(with: header) else { return false }
        position = header.count
        return true
    }

    /// The next `[priority:type]` section and its rules, or nil at the end (or at damage).
    mutating func nextSection() -> (Int, String, [MimeMagic.Rule], Bool)? {
        while position < bytes.count, bytes[position] != UInt8(ascii: "[") { skipLine() }
        guard position < bytes.count, let close = bytes[position...].firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let head = String(decoding: bytes[(position + 1)..<close], as: UTF8.self).split(separator: ":", maxSplits: 1)
        position = close + 1
        skipLine()
        guard head.count == 2, let priority = Int(head[0]) else { return nextSection() }
        var rules: [MimeMagic.Rule] = []
        var noMagic = false
        while position < bytes.count, bytes[position] != UInt8(ascii: "[") {
            switch rule() {
            case .rule(let rule): rules.append(rule)
            case .noMagic: noMagic = true
            case .skipped: continue
            case .damaged: position = bytes.count
            }
        }
        return (priority, head[1].lowercased(), rules, noMagic)
    }

    private enum Outcome { case rule(MimeMagic.Rule), noMagic, skipped, damaged }

    private mutating func rule() -> Outcome {
        let indent = number() ?? 0
        guard take(">"), let offset = number(), take("=") else { return .damaged }
        let noMagic = Array("__NOMAGIC__\n".utf8)
        if bytes[position...].starts(with: noMagic) {
            position += noMagic.count
            return .noMagic
        }
        guard position + 2 <= bytes.count else { return .damaged }
        let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
        position += 2
        guard position + length <= bytes.count else { return .damaged }
        var value = Array(bytes[position..<(position + length)])
        position += length
        var mask: [UInt8]?
        if take("&") {
            guard position + length <= bytes.count else { return .damaged }
            mask = Array(bytes[position..<(position + length)])
            position += length
        }
        var wordSize = 1, range = 1
        if take("~") { wordSize = number() ?? 1 }
        if take("+") { range = number() ?? 1 }
        // Anything else before the newline is a future extension: the whole rule is ignored.
        guard take("\n") else { skipLine(); return .skipped }
        guard offset <= Self.maximumOffset, range >= 1, range <= Self.maximumRange, length <= Self.maximumValue else { return .skipped }
        if wordSize > 1, 1.littleEndian == 1 {
            // Values of host-order words are stored big-endian: swap each word on little-endian hosts.
            swapWords(&value, wordSize)
            if var swapped = mask { swapWords(&swapped, wordSize); mask = swapped }
        }
        return .rule(MimeMagic.Rule(indent: indent, offset: offset, value: value, mask: mask, range: range))
    }

    private func swapWords(_ bytes: inout [UInt8], _ size: Int) {
        guard bytes.count % size == 0 else { return }
        for start in stride(from: 0, to: bytes.count, by: size) { bytes[start..<(start + size)].reverse() }
    }

    private mutating func number() -> Int? {
        var value = 0, digits = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9"), digits < 9 {
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            position += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    private mutating func skipLine() {
        while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
        position += 1
    }
}
