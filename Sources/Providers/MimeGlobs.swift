#if canImport(Glibc)
import Glibc
#endif

/// The file-name patterns of shared-mime-info's `globs2` files (`weight:type:glob[:flags]`),
/// and the specification's rule for choosing among the patterns a name matches: keep the
/// highest weight, then the longest pattern.
///
/// Patterns are indexed three ways so a lookup does not run a thousand `fnmatch` calls:
/// literal names (`makefile`), simple suffixes (`*.tar.gz`), and the few full globs left.
struct MimeGlobs: Sendable {
    struct Glob: Sendable, Equatable {
        let weight: Int
        let type: String
        let pattern: String
        let caseSensitive: Bool
    }

    private var literals: [String: [Glob]] = [:]
    private var suffixes: [String: [Glob]] = [:]
    private var full: [Glob] = []
    /// Types whose globs from less important directories are ignored (`__NOGLOBS__`).
    private var blocked: Set<String> = []

    init() {}

    /// Adds the `globs2` file of one directory; call most important directory first.
    mutating func add(globs2 bytes: [UInt8]) {
        var blockedHere: Set<String> = []
        for line in ASCIIText.lines(bytes) where !ASCIIText.isComment(line) {
            let fields = line.split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, let weight = Int(ASCIIText.string(fields[0])), !fields[1].isEmpty, !fields[2].isEmpty else { continue }
            let type = ASCIIText.lowercased(fields[1])
            let pattern = ASCIIText.string(fields[2])
            if pattern == "__NOGLOBS__" {
                blockedHere.insert(type)
                continue
            }
            guard !blocked.contains(type) else { continue }
            let caseSensitive = fields.count > 3 && fields[3].split(separator: UInt8(ascii: ",")).contains { $0.elementsEqual("cs".utf8) }
            insert(Glob(weight: weight, type: type, pattern: pattern, caseSensitive: caseSensitive))
        }
        blocked.formUnion(blockedHere)
    }

    private mutating func insert(_ glob: Glob) {
        let key = glob.caseSensitive ? glob.pattern : glob.pattern.lowercased()
        func isWildcard(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[") }
        let bytes = key.utf8
        if !bytes.contains(where: isWildcard) {
            literals[key, default: []].append(glob)
        } else if bytes.first == UInt8(ascii: "*"), !bytes.dropFirst().contains(where: isWildcard) {
            suffixes[String(key.dropFirst()), default: []].append(glob)
        } else {
            full.append(glob)
        }
    }

    /// Every pattern the base name matches.
    func matches(_ fileName: String) -> [Glob] {
        let lower = fileName.lowercased()
        var found: [Glob] = []
        // Case-sensitive patterns are looked up with the name as it is, the others with it lower-cased.
        for name in fileName == lower ? [fileName] : [fileName, lower] {
            func fits(_ glob: Glob) -> Bool { glob.caseSensitive ? name == fileName : name == lower }
            found += (literals[name] ?? []).filter(fits)
            var index = name.startIndex
            while index < name.endIndex {
                found += (suffixes[String(name[index...])] ?? []).filter(fits)
                index = name.index(after: index)
            }
        }
        for glob in full {
            let subject = glob.caseSensitive ? fileName : lower
            let pattern = glob.caseSensitive ? glob.pattern : glob.pattern.lowercased()
            if fnmatch(pattern, subject, 0) == 0 { found.append(glob) }
        }
        return found
    }

    /// The types the specification keeps for a name: highest weight, then longest pattern;
    /// in pattern order, without duplicates. Empty when nothing matches; more than one when
    /// the name is ambiguous.
    func candidates(for fileName: String) -> [String] {
        let all = matches(fileName)
        guard let weight = all.map(\.weight).max() else { return [] }
        let heavy = all.filter { $0.weight == weight }
        let length = heavy.map(\.pattern.utf8.count).max() ?? 0
        var seen = Set<String>()
        return heavy.filter { $0.pattern.utf8.count == length }.map(\.type).filter { seen.insert($0).inserted }
    }
}
