import SystemKit
import ThumbnailKit

/// Content types through the freedesktop shared-mime-info database: the compiled `globs2`,
/// `magic`, `subclasses` and `aliases` files of `$XDG_DATA_HOME/mime` and each
/// `$XDG_DATA_DIRS/*/mime`, so a type a user or a package registered with
/// `update-mime-database` (`application/x-qlbrowse-test` for `*.qlbt`) is known to qlbrowse too.
///
/// The decision follows the specification: an unambiguous name match (one type after keeping the
/// highest weight, then the longest pattern) wins; otherwise the content's magic decides, and a
/// name candidate that is the magic's type or a subclass of it is preferred. Pure Swift: the
/// files are small text (and one small binary) read once.
public struct SharedMimeDatabase: Sendable {
    private var globs = MimeGlobs()
    private var magic = MimeMagic()
    /// Type → its direct parents (canonical names).
    private var parents: [String: [String]] = [:]
    /// Alias → canonical type.
    private var aliases: [String: String] = [:]

    /// The most bytes of a file's start `type(forFile:header:)` can use.
    public static let maximumHeaderLength = 64 * 1024

    /// The database of this process's environment (`XDG_DATA_HOME`, `XDG_DATA_DIRS`), loaded once
    /// for the content sniffer, the external thumbnailers and the previewers alike (a worker
    /// loaded it twice before its first answer).
    private static let ofEnvironment: (directories: XDGDataDirectories, database: SharedMimeDatabase) = {
        let directories = XDGDataDirectories.fromEnvironment()
        return (directories, SharedMimeDatabase(mimeDirectories: directories.paths("mime")))
    }()

    /// The database of `directories`: the process's own, loaded once, when they are the environment's.
    public static func loaded(from directories: XDGDataDirectories = .fromEnvironment()) -> SharedMimeDatabase {
        directories == ofEnvironment.directories ? ofEnvironment.database : SharedMimeDatabase(directories: directories)
    }

    /// Loads every `mime` directory of `directories`; missing files are simply absent.
    public init(directories: XDGDataDirectories = .fromEnvironment()) {
        self.init(mimeDirectories: directories.paths("mime"))
    }

    /// Loads the given `mime` directories, most important first.
    public init(mimeDirectories: [String]) {
        for directory in mimeDirectories {
            if let bytes = Self.bytes(directory + "/globs2") { globs.add(globs2: bytes) }
            if let bytes = Self.bytes(directory + "/magic") { magic.add(magic: bytes) }
            if let bytes = Self.bytes(directory + "/aliases") {
                for (alias, type) in Self.pairs(bytes) where aliases[alias] == nil { aliases[alias] = type }
            }
            if let bytes = Self.bytes(directory + "/subclasses") {
                for (type, parent) in Self.pairs(bytes) where !(parents[type]?.contains(parent) ?? false) {
                    parents[type, default: []].append(parent)
                }
            }
        }
    }

    /// How many leading bytes of a file the magic rules look at (bounded).
    public var headerLength: Int { min(magic.extent, Self.maximumHeaderLength) }

    /// The type a file name alone says, or nil when no pattern matches or the best patterns
    /// name different types (then only the content can tell).
    public func type(forFileName name: String) -> ContentType? {
        let found = candidates(forFileName: name)
        return found.count == 1 ? found[0] : nil
    }

    /// The types the best-matching patterns name (highest weight, then longest pattern),
    /// canonical; more than one when the name is ambiguous.
    public func candidates(forFileName name: String) -> [ContentType] {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        var seen = Set<String>()
        return globs.candidates(for: base).map { canonical($0) }.filter { seen.insert($0).inserted }.map(ContentType.init)
    }

    /// The type for a file from its name and its first bytes (`header`, ideally `headerLength`
    /// long), per the specification's order; nil when neither name nor content says anything.
    public func type(forFile path: String, header: [UInt8]) -> ContentType? {
        let named = candidates(forFileName: path)
        if named.count == 1 { return named[0] }
        let ids = named.map(\.identifier)
        let data = header.count > Self.maximumHeaderLength ? Array(header.prefix(Self.maximumHeaderLength)) : header
        guard let sniffed = magic.match(data, preferring: ids).map({ ContentType(canonical($0.type)) }) else {
            return named.first
        }
        // A name candidate that is the sniffed type or a more precise kind of it wins (`foo.doc` that is OLE storage).
        return named.first { isSubclass($0, of: sniffed) } ?? sniffed
    }

    /// Reads the file's first `headerLength` bytes and decides as `type(forFile:header:)`.
    public func type(forFile path: String) -> ContentType? {
        let header = (try? FileBytes(path: path))?.read(at: 0, count: max(headerLength, 1)) ?? []
        return type(forFile: path, header: header)
    }

    /// The type magic alone finds in `header`, without the name.
    public func magicType(header: [UInt8]) -> ContentType? {
        magic.match(Array(header.prefix(Self.maximumHeaderLength))).map { ContentType(canonical($0.type)) }
    }

    /// Whether `type` is `ancestor` or inherits from it, through `subclasses`, aliases and the
    /// specification's implicit rules (`text/*` is `text/plain`; every file is `application/octet-stream`).
    public func isSubclass(_ type: ContentType, of ancestor: ContentType) -> Bool {
        let target = canonical(ancestor.identifier)
        var pending = [canonical(type.identifier)]
        var seen = Set<String>()
        while let current = pending.popLast() {
            guard seen.insert(current).inserted else { continue }
            if current == target { return true }
            pending += parents[current] ?? []
            if current.hasPrefix("text/"), current != "text/plain" { pending.append("text/plain") }
            if !current.hasPrefix("inode/"), current != "application/octet-stream" { pending.append("application/octet-stream") }
        }
        return false
    }

    /// The canonical name for an alias (`application/x-pdf` → `application/pdf`), else the type itself.
    public func canonical(_ type: ContentType) -> ContentType { ContentType(canonical(type.identifier)) }

    func canonical(_ identifier: String) -> String {
        let lower = identifier.lowercased()
        return aliases[lower] ?? lower
    }

    /// The two-field lines of `aliases` and `subclasses` (`first second`), lower-cased.
    private static func pairs(_ bytes: [UInt8]) -> [(String, String)] {
        ASCIIText.lines(bytes).compactMap { line in
            let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard parts.count == 2, !ASCIIText.isComment(line) else { return nil }
            return (ASCIIText.lowercased(parts[0]), ASCIIText.lowercased(parts[1]))
        }
    }

    /// Database files are small; anything beyond a few megabytes is not one.
    private static let maximumFileSize = 8 << 20

    private static func bytes(_ path: String) -> [UInt8]? {
        guard let file = try? FileBytes(path: path), file.size > 0, file.size <= maximumFileSize else { return nil }
        return file.readAll(limit: maximumFileSize)
    }
}
