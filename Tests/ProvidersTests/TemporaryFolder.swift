import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder under /tmp for one test, removed when the test lets go of it.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "qlbrowse-providers-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` at `relative` (folders created as needed) and returns the full path.
    @discardableResult
    func write(_ relative: String, bytes: [UInt8], executable: Bool = false) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Written through a close-on-exec descriptor: tests run in parallel, and a process another
        // test starts meanwhile must not inherit a descriptor open for writing, or executing this
        // file fails with "Text file busy" (ETXTBSY) for as long as that process lives.
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        if executable { chmod(full, 0o755) }
        return full
    }

    @discardableResult
    func write(_ relative: String, _ text: String, executable: Bool = false) throws -> String {
        try write(relative, bytes: Array(text.utf8), executable: executable)
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + relative) }
}

/// A compiled shared-mime-info `magic` file: `MIME-Magic\0\n` then sections of rules.
enum MagicFile {
    struct Rule {
        var indent = 0
        var offset = 0
        var value: [UInt8]
        var mask: [UInt8]? = nil
        var wordSize: Int? = nil
        var range: Int? = nil
        /// Raw bytes appended before the newline (to test unknown extensions).
        var trailer: [UInt8] = []
    }

    static func make(_ sections: [(priority: Int, type: String, rules: [Rule])]) -> [UInt8] {
        var bytes = Array("MIME-Magic\0\n".utf8)
        for section in sections {
            bytes += Array("[\(section.priority):\(section.type)]\n".utf8)
            for rule in section.rules {
                if rule.indent > 0 { bytes += Array(String(rule.indent).utf8) }
                bytes += Array(">\(rule.offset)=".utf8)
                bytes += [UInt8(rule.value.count >> 8), UInt8(rule.value.count & 0xff)] + rule.value
                if let mask = rule.mask { bytes += [UInt8(ascii: "&")] + mask }
                if let word = rule.wordSize { bytes += Array("~\(word)".utf8) }
                if let range = rule.range { bytes += Array("+\(range)".utf8) }
                bytes += rule.trailer + [UInt8(ascii: "\n")]
            }
        }
        return bytes
    }
}
