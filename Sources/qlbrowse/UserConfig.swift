#if canImport(Glibc)
import Glibc
#endif

/// `$XDG_CONFIG_HOME/qlbrowse/config.toml`: flat `key = "value"` lines (theme, graphics).
struct UserConfig {
    static let knownKeys: Set<String> = ["theme", "graphics", "prefer_external"]

    var values: [String: String] = [:]
    var problems: [String] = []

    static var folder: String {
        (ProcessEnvironment.variable("XDG_CONFIG_HOME") ?? ProcessEnvironment.home + "/.config") + "/qlbrowse"
    }

    static func load() -> UserConfig {
        let path = folder + "/config.toml"
        guard let text = TextFile.read(path) else { return UserConfig() }
        let config = parse(text, path: path)
        // `prefer_external = "image/png,application/pdf"` (or "all"): those types go to installed
        // .thumbnailer programs before the built-in providers. The workers read it from the environment.
        if let prefer = config.values["prefer_external"], ProcessEnvironment.variable("QLBROWSE_PREFER_EXTERNAL") == nil {
            setenv("QLBROWSE_PREFER_EXTERNAL", prefer, 1)
        }
        return config
    }

    static func parse(_ text: String, path: String) -> UserConfig {
        var config = UserConfig()
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let trimmed = line.filter { $0 != "\r" }.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters() }
            if trimmed.count == 1 && trimmed[0].isEmpty || trimmed.isEmpty || trimmed[0].hasPrefix("[") { continue }
            guard trimmed.count == 2, knownKeys.contains(trimmed[0]) else {
                config.problems.append("\(path):\(number + 1): ignored: \(TerminalText.escaped(String(raw)))")
                continue
            }
            var value = trimmed[1]
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            config.values[trimmed[0]] = value
        }
        return config
    }
}

/// Small text files (config, themes).
enum TextFile {
    static func read(_ path: String) -> String? {
        FileDescriptorReader.readFile(path, upTo: 256 * 1024).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        var slice = self
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}

import ThumbnailKit
