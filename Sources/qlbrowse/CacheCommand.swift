import ArgumentParser
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse cache stats|clean`: look after the shared freedesktop thumbnail cache.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clean the thumbnail cache shared with other file managers.",
        subcommands: [Stats.self, Clean.self])

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count the cached thumbnails and their size, per size folder.")

        func run() throws {
            let cache = ThumbnailCache()
            var lines = ["cache: \(TerminalText.escaped(cache.root))"]
            var totalFiles = 0, totalBytes = 0
            for folder in ThumbnailCache.Flavor.allCases.map(\.rawValue) + ["fail/qlbrowse-\(EngineVersion.string)"] {
                let (files, bytes) = CacheFolder.usage("\(cache.root)/\(folder)")
                totalFiles += files
                totalBytes += bytes
                lines.append("\(folder.split(separator: "/").first.map(String.init)!.padding(9)) \(String(files).leftPadding(7)) files \(ByteCount.text(bytes).leftPadding(9))")
            }
            lines.append("\("total".padding(9)) \(String(totalFiles).leftPadding(7)) files \(ByteCount.text(totalBytes).leftPadding(9))")
            print(lines.joined(separator: "\n"))
        }
    }

    struct Clean: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clean",
            abstract: "Remove thumbnails whose original is gone, and remembered failures.",
            discussion: "With --older-than, also remove thumbnails not used (accessed) for that many days.")

        @Option(parsing: .unconditional, help: "Also remove thumbnails not accessed for this many days.")
        var olderThan: Int?

        @Flag(help: "Show what would be removed without removing it.")
        var dryRun = false

        func validate() throws {
            if let olderThan, !(0...100_000).contains(olderThan) { throw ValidationError("--older-than takes a number of days, from 0 to 100000") }
        }

        func run() throws {
            let cache = ThumbnailCache()
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let cutoff = olderThan.map { Int(now.tv_sec) - $0 * 86_400 }
            var removed = 0, bytes = 0, kept = 0
            for flavor in ThumbnailCache.Flavor.allCases {
                CacheFolder.forEachFile("\(cache.root)/\(flavor.rawValue)") { path, status in
                    let stale = CacheFolder.originalIsGone(path) || (cutoff.map { Int(status.st_atim.tv_sec) < $0 } ?? false)
                    if stale {
                        if dryRun || unlink(path) == 0 { removed += 1; bytes += Int(status.st_size) }
                    } else {
                        kept += 1
                    }
                }
            }
            // Only our own failure folder: other programs' fail entries are theirs to manage.
            let failFolder = "\(cache.root)/fail/qlbrowse-\(EngineVersion.string)"
            CacheFolder.forEachFile(failFolder) { path, status in
                if dryRun || unlink(path) == 0 { removed += 1; bytes += Int(status.st_size) }
            }
            print("\(dryRun ? "would remove" : "removed") \(removed) entries (\(ByteCount.text(bytes))), kept \(kept)")
        }
    }
}

/// Walks one cache folder.
enum CacheFolder {
    static func forEachFile(_ folder: String, _ body: (String, stat) -> Void) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = entry.pointee.name
            guard name.hasSuffix(".png") else { continue }
            let path = folder + "/" + name
            var status = stat()
            if lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG { body(path, status) }
        }
    }

    static func usage(_ folder: String) -> (files: Int, bytes: Int) {
        var files = 0, bytes = 0
        forEachFile(folder) { _, status in files += 1; bytes += Int(status.st_size) }
        return (files, bytes)
    }

    /// True when the entry's `Thumb::URI` names a local file that no longer exists.
    static func originalIsGone(_ path: String) -> Bool {
        guard let bytes = FileDescriptorReader.readFile(path, upTo: 64 * 1024), !bytes.isEmpty else { return false }
        // Text chunks come before the pixels in every writer we know; a cut-off PNG still yields them.
        let uri = TextChunkScanner.value(of: "Thumb::URI", in: bytes)
        guard let uri, let original = FileURI.path(from: uri) else { return false }
        return access(original, F_OK) != 0 && errno == ENOENT
    }
}

/// Finds a tEXt value in the first bytes of a PNG without decoding it.
enum TextChunkScanner {
    static func value(of key: String, in bytes: [UInt8]) -> String? {
        var position = 8
        while position + 8 <= bytes.count {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            let end = position + 8 + length
            if type == "IDAT" || end > bytes.count { return nil }
            if type == "tEXt", let zero = bytes[(position + 8)..<end].firstIndex(of: 0),
               String(decoding: bytes[(position + 8)..<zero], as: UTF8.self) == key {
                return String(bytes[(zero + 1)..<end].map { Character(Unicode.Scalar($0)) })
            }
            position = end + 4
        }
        return nil
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
