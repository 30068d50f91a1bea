import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

extension FileOperation {
    /// Why the operation cannot start, in words, or nil. Reads only (the capabilities come from a
    /// probe of the destination).
    public func problem(destinationCapabilities capabilities: VolumeCapabilities?) -> String? {
        for source in sources {
            var info = stat()
            if lstat(source, &info) != 0 { return FileSystemError.system(errno, "cannot read \(source)").message }
        }
        guard kind == .copy || kind == .move, let destination else { return nil }
        let sameVolume = kind == .move && sources.allSatisfy { Self.device(of: $0) == Self.device(of: destination) }
        if let capabilities, capabilities.isReadOnly { return "\(destination) is on a read-only volume" }
        for source in sources where destination == source || destination.hasPrefix(source + "/") {
            return "cannot put \(Self.name(source)) inside itself"
        }
        let tree = sources.flatMap { Self.walk($0) }
        checkedTree.withLock { $0 = tree }
        if let capabilities {
            for item in tree {
                if let problem = capabilities.problem(withName: item.name) { return "\(item.relative): \(problem)" }
                if let limit = capabilities.maximumFileSize, item.size > limit {
                    return "\(item.relative) is \(Self.bytes(item.size)); this volume (FAT) holds files up to 4 GiB"
                }
                if item.isSymlink && capabilities.supportsSymlinks == false { return "\(item.relative) is a symbolic link, which this volume cannot hold" }
            }
            if capabilities.isCaseInsensitive == true, let clash = Self.caseClash(tree.map(\.relative), existing: Self.names(in: destination)) {
                return "\(clash) differ only in case, which this volume does not tell apart"
            }
        }
        if !sameVolume {
            let needed = tree.reduce(Int64(0)) { $0 + $1.size }
            var space = statvfs()
            if statvfs(destination, &space) == 0 {
                // Saturated: a FUSE file system may report any count of free blocks.
                let (product, overflow) = Int64(clamping: space.f_bavail).multipliedReportingOverflow(by: Int64(clamping: space.f_frsize))
                let free = overflow ? Int64.max : product
                if needed > free { return "needs \(Self.bytes(needed)), \(destination) has \(Self.bytes(free)) free" }
            }
        }
        return nil
    }
}

extension FileOperation {
    /// Why an operand must not be removed or moved away, in rm's words, or nil: a path whose last
    /// part is `.` or `..` (trailing slashes aside) names the folder the user stands in or its
    /// parent, and `/` is everything. The operand is judged as typed, before `..` is resolved.
    public static func refusalToRemove(_ operand: String) -> String? {
        var trimmed = Substring(operand)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let last = trimmed.split(separator: "/", omittingEmptySubsequences: true).last ?? ""
        let shown = TerminalText.escaped(operand)
        if last == "." || last == ".." { return "refusing to remove '.' or '..': skipping '\(shown)'" }
        if trimmed == "/" || (!trimmed.isEmpty && trimmed.allSatisfy { $0 == "/" }) { return "refusing to remove '/': skipping '\(shown)'" }
        return nil
    }
}
