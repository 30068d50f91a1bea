/// The shared-mime-info database's text files (`globs2`, `aliases`, `subclasses`) read as bytes:
/// lines and fields split on ASCII bytes, names lower-cased as ASCII (MIME types are ASCII). Read
/// as `String` (characters, grapheme breaks, a `Set<Character>` per pattern) the 2,000 lines cost
/// a worker ~77 M instructions before its first answer.
enum MimeDatabaseText {
    /// The lines of `bytes` without their line ends, empty lines and `#` comments left out.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
            .filter { $0.first != UInt8(ascii: "#") }
    }

    /// `text` as a String, lower-cased where it is ASCII.
    static func lowercased(_ text: ArraySlice<UInt8>) -> String {
        String(decoding: text.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }

    static func string(_ text: ArraySlice<UInt8>) -> String {
        String(decoding: text, as: UTF8.self)
    }

    /// The two-field lines of `aliases` and `subclasses` (`first second`), lower-cased.
    static func pairs(_ bytes: [UInt8]) -> [(String, String)] {
        lines(bytes).compactMap { line in
            let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard parts.count == 2 else { return nil }
            return (lowercased(parts[0]), lowercased(parts[1]))
        }
    }
}
