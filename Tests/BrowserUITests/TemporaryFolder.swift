import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A private folder under `$TMPDIR` (or /tmp) for one test case, and its removal with all in it.
enum TemporaryFolder {
    static func make() -> String {
        let base = ProcessEnvironment.variable("TMPDIR") ?? "/tmp"
        var template = Array((base + "/qlbrowse-names-XXXXXX").utf8) + [0]
        let made = template.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdtemp($0.baseAddress!) } }
        precondition(made != nil, "cannot make a temporary folder")
        return String(decoding: template.dropLast(), as: UTF8.self)
    }

    /// Removes `folder` and everything in it, names as bytes, links not followed.
    static func remove(_ folder: String) {
        var stack = [Array(folder.utf8)]
        var folders: [[UInt8]] = []
        while let current = stack.popLast() {
            folders.append(current)
            guard let directory = (current + [0]).withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) } }) else { continue }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                let child = current + [0x2F] + name
                if entry.pointee.d_type == UInt8(DT_DIR) { stack.append(child) } else {
                    _ = (child + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
                }
            }
            closedir(directory)
        }
        for path in folders.reversed() {
            _ = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { rmdir($0.baseAddress!) } }
        }
    }
}
