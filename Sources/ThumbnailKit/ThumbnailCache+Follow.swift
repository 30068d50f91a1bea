import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Thumbnails follow their files (the thumbnail spec's advice to file managers): a moved or
/// renamed file's entries move to its new URI, with `Thumb::URI` rewritten so they stay valid; a
/// deleted file's entries are removed.
extension ThumbnailCache {
    /// Moves the entries of `oldPath` (a file, or every file below a folder) to `newPath`.
    public func moveThumbnails(from oldPath: String, to newPath: String) {
        for (old, new) in Self.pairs(from: PathNormalizer.absolute(oldPath), to: PathNormalizer.absolute(newPath)) {
            let newURI = FileURI.from(absolutePath: new)
            for flavor in Flavor.allCases {
                let from = path(forFile: old, flavor: flavor), to = path(forFile: new, flavor: flavor)
                guard let png = UntrustedFile.read(from, links: .refused, upTo: 64 << 20), let info = PNGDecoder.info(png),
                      let image = PNGDecoder.decode(png) else { continue }
                let text = info.text.map { ($0.key, $0.key == "Thumb::URI" ? newURI : $0.value) }.sorted { $0.0 < $1.0 }
                try? AtomicFileWriter.write(PNGEncoder.encode(image, text: text), to: to, permissions: 0o600)
                unlink(from)
            }
            unlink(failurePath(forFile: old))
        }
    }

    /// Removes the entries of `path` (a file, or, when it was a folder, every file that was below it:
    /// pass the files, as the folder is gone).
    public func removeThumbnails(for path: String) {
        let absolute = PathNormalizer.absolute(path)
        for flavor in Flavor.allCases { unlink(self.path(forFile: absolute, flavor: flavor)) }
        unlink(failurePath(forFile: absolute))
    }

    /// (old, new) for a file, or for every file below a folder (looked up at its new place).
    static func pairs(from old: String, to new: String) -> [(String, String)] {
        var info = stat()
        guard lstat(new, &info) == 0 else { return [] }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return [(old, new)] }
        var result: [(String, String)] = []
        var pending = [""]
        while let relative = pending.popLast() {
            guard let directory = opendir(new + relative) else { continue }
            while let entry = readdir(directory) {
                let name = entry.pointee.name
                if name == "." || name == ".." { continue }
                let child = relative + "/" + name
                var childInfo = stat()
                guard lstat(new + child, &childInfo) == 0 else { continue }
                if (childInfo.st_mode & S_IFMT) == S_IFDIR { pending.append(child) } else { result.append((old + child, new + child)) }
            }
            closedir(directory)
        }
        return result
    }
}
