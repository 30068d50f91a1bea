import SystemKit
import ThumbnailKit

/// Loading desktop-entry style files (`.thumbnailer`, `.previewer`) from a list of folders, most
/// important first, as the freedesktop specifications do it: a file name found in a more important
/// folder hides the same name further down (that is how a user overrides or disables a system
/// file), an entry whose `TryExec` program is not installed is skipped, and types are matched
/// exactly after alias resolution.
enum DesktopEntryFolders {
    /// The parsed entries of every `*suffix` file in `folders`: usable ones (most important folder
    /// first, then by file name) and those skipped for a missing `TryExec` program.
    static func load<Entry>(_ folders: [String], suffix: String, searchPath: String, parse: (String, String) -> Entry?,
                            tryExec: (Entry) -> String?) -> (usable: [Entry], skipped: [Entry]) {
        var seen = Set<String>()
        var usable: [Entry] = []
        var skipped: [Entry] = []
        for folder in folders {
            for name in FileSystem.entries(of: folder) where name.hasSuffix(suffix) && seen.insert(name).inserted {
                let path = folder + "/" + name
                guard let text = text(path), let entry = parse(text, path) else { continue }
                if let program = tryExec(entry), ProgramSearch.executable(program, searchPath: searchPath) == nil {
                    skipped.append(entry)
                } else {
                    usable.append(entry)
                }
            }
        }
        return (usable, skipped)
    }

    /// Canonical MIME type → indices into `typeLists` (each entry's `MimeType` list), in order.
    static func index(_ typeLists: [[String]], database: SharedMimeDatabase) -> [String: [Int]] {
        var byType: [String: [Int]] = [:]
        for (index, types) in typeLists.enumerated() {
            for type in Set(types.map { database.canonical($0) }) { byType[type, default: []].append(index) }
        }
        return byType
    }

    /// These files are a few lines; refuse anything absurd.
    private static func text(_ path: String) -> String? {
        guard let file = try? FileBytes(path: path), file.size > 0, file.size <= 256 * 1024 else { return nil }
        return String(decoding: file.readAll(limit: 256 * 1024), as: UTF8.self)
    }
}
