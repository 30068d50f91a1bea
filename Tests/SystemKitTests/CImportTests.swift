import SystemKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// C stays at the edge: `import C…` only in the system layer, the providers, the graphics
/// drivers, the curses screen and the engine's codecs.
@Suite struct CImportTests {
    static let allowed = ["Sources/SystemKit/", "Sources/Providers/", "Sources/TerminalGraphics/Drivers/",
                          "Sources/BrowserUI/CursesScreen", "Sources/ThumbnailKit/Codecs/"]
    /// Key decoding still names curses' key codes; it moves behind the screen in the BrowserUI redesign (issue #11).
    static let pending = ["Sources/BrowserUI/KeyMap.swift", "Sources/BrowserUI/KeyBindings.swift"]

    @Test func cModulesAreImportedOnlyAtTheEdge() throws {
        let root = String(#filePath.dropLast("Tests/SystemKitTests/CImportTests.swift".count))
        var offenders: [String] = []
        for file in Self.swiftFiles(under: root + "Sources") {
            let relative = String(file.dropFirst(root.count))
            guard !Self.allowed.contains(where: relative.hasPrefix), !Self.pending.contains(relative) else { continue }
            guard let bytes = FileDescriptorReader.readFile(file, upTo: 1 << 20) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: "import"), index + 1 < words.count, words[index + 1].first == "C",
                   words[..<index].allSatisfy({ $0.hasPrefix("@") || ["internal", "public", "package"].contains($0) }) {
                    offenders.append("\(relative): \(line)")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    static func swiftFiles(under folder: String) -> [String] {
        DirectoryEntries.list(folder).filter { !$0.name.hasPrefix(".") }.flatMap { entry -> [String] in
            let path = folder + "/" + entry.name
            if entry.type == DT_DIR { return swiftFiles(under: path) }
            return entry.name.hasSuffix(".swift") ? [path] : []
        }
    }
}
