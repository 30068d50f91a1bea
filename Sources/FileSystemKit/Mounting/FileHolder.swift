import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A process that holds a file or folder on a volume open, found in `/proc`: what stops an
/// unmount ("target is busy"), named so that the user can close it.
public struct FileHolder: Sendable, Equatable {
    public let pid: Int32
    /// The program's name (`/proc/PID/comm`).
    public let program: String
    /// What it holds, under the mount point.
    public let path: String
    /// It has its working folder there (a shell `cd`'d into it), rather than a file open.
    public let isFolder: Bool

    public init(pid: Int32, program: String, path: String, isFolder: Bool) {
        self.pid = pid
        self.program = program
        self.path = path
        self.isFolder = isFolder
    }

    /// "bash (pid 4121) has its folder open", "python3 (pid 77) has notes.txt open".
    public var sentence: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(program) (pid \(pid)) has \(isFolder ? "its folder" : name) open"
    }

    /// Every process but `excluding` with its working folder, root, or an open file under
    /// `mountPoint`. Processes whose /proc this user may not read are not seen.
    public static func holders(under mountPoint: String, excluding: Set<Int32> = []) -> [FileHolder] {
        let inside = { (path: String) in path == mountPoint || path.hasPrefix(mountPoint + "/") }
        var found: [FileHolder] = []
        for entry in DirectoryEntries.list("/proc") {
            guard let pid = Int32(entry.name), !excluding.contains(pid) else { continue }
            let base = "/proc/\(entry.name)"
            let program = FileDescriptorReader.readFile(base + "/comm", upTo: 64).map { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" } ?? "?"
            if let cwd = readLink(base + "/cwd"), inside(cwd) {
                found.append(FileHolder(pid: pid, program: program, path: cwd, isFolder: true))
                continue
            }
            for fd in DirectoryEntries.list(base + "/fd") {
                if let target = readLink(base + "/fd/" + fd.name), inside(target) {
                    found.append(FileHolder(pid: pid, program: program, path: target, isFolder: false))
                    break
                }
            }
        }
        return found
    }
}
