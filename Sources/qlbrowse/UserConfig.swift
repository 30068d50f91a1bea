import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// `$XDG_CONFIG_HOME/qlbrowse/config.toml`: `key = "value"` lines (theme, graphics,
/// preview_width, prefer_external, verify_copies, service, service_idle_seconds, ssh_command) and a `[keys]`
/// table of `"key" = "command"` lines.
struct UserConfig {
    static let knownKeys: Set<String> = ["theme", "graphics", "prefer_external", "preview_width", "verify_copies", "service", "service_idle_seconds", "ssh_command", "remote_command", "ssh_mode"]

    var values: [String: String] = [:]
    /// The `[keys]` table, in file order.
    var keyBindings: [(key: String, command: String, line: Int)] = []
    var problems: [String] = []

    static var folder: String {
        ProcessEnvironment.current.configHome + "/qlbrowse"
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
        var section = ""
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let cleaned = String(raw.filter { $0 != "\r" })
            let line = Self.withoutComment(cleaned)
            let trimmed = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters() }
            if trimmed.isEmpty || trimmed.count == 1 && trimmed[0].isEmpty { continue }
            if trimmed.count == 1 && trimmed[0].hasPrefix("[") && trimmed[0].hasSuffix("]") {
                section = trimmed[0].dropFirst().dropLast().trimmingCharacters()
                if section != "keys" { config.problems.append("\(path):\(number + 1): unknown table [\(TerminalText.escaped(section))] ignored") }
                continue
            }
            guard trimmed.count == 2 else {
                config.problems.append("\(path):\(number + 1): ignored: \(TerminalText.escaped(String(raw)))")
                continue
            }
            let key = Self.unquoted(trimmed[0]), value = Self.unquoted(trimmed[1])
            switch section {
            case "keys":
                config.keyBindings.append((key, value, number + 1))
            case "" where knownKeys.contains(key):
                config.values[key] = value
            default:
                if section.isEmpty || section == "keys" {
                    config.problems.append("\(path):\(number + 1): ignored: \(TerminalText.escaped(String(raw)))")
                }
            }
        }
        return config
    }
}

extension UserConfig {
    /// The line up to a `#` that is not inside quotes (`"#" = "filter"` binds the # key).
    static func withoutComment(_ line: String) -> String {
        var inQuotes = false
        var result = ""
        for character in line {
            if character == "\"" { inQuotes.toggle() }
            if character == "#" && !inQuotes { break }
            result.append(character)
        }
        return result
    }

    static func unquoted(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
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
