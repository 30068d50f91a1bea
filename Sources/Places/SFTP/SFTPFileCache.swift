import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// This machine's copies of whole files an `SFTPPlace` read for their full picture, so that a
/// second visit reads nothing over the link for the files that did not change. Kept in the
/// user's cache folder (`$XDG_CACHE_HOME/qlbrowse/sftp-files`, 0700, files 0600), one file per
/// version, named by the MD5 of its key: the remote's address (user, host, port), the path's
/// bytes there and the size and mtime it was listed with (a changed file has another key and is
/// read again), with the name's extension kept (the local engine sniffs content, but a RAW's
/// extension helps it). A copy is written to a temporary file and renamed into place; the
/// folder is kept under `limit` bytes, the copies used longest ago (by access time) removed first.
public final class SFTPFileCache: Sendable {
    public let folder: String
    /// The most bytes the copies may take together.
    public let limit: Int
    /// The largest file copied (a bigger one gets no full picture over SFTP: a grid of videos
    /// would otherwise read them whole; a camera RAW is 25–60 MB).
    public let largestFile: Int

    public init(folder: String, limit: Int = 2 << 30, largestFile: Int = 64 << 20) {
        self.folder = folder
        self.limit = limit
        self.largestFile = largestFile
    }

    /// The user's: `$XDG_CACHE_HOME/qlbrowse/sftp-files`.
    public static var user: SFTPFileCache {
        SFTPFileCache(folder: ProcessEnvironment.current.cacheHome + "/qlbrowse/sftp-files")
    }

    /// Where the copy of `path` at `address`, as listed with `size` and `modified`, is kept.
    public func file(for path: String, at address: RemoteAddress, size: Int, modified: Int) -> String {
        let key = Array("\(address.destination)\u{0}\(address.port ?? 22)\u{0}".utf8) + path.fileSystemBytes + Array("\u{0}\(size)\u{0}\(modified)".utf8)
        let name = MD5.digest(key).map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
        let last = path.fileSystemBytes.split(separator: 0x2F).last ?? []
        let suffix = last.lastIndex(of: 0x2E).map { Array(last[($0 + 1)...]) } ?? []
        let keeps = !suffix.isEmpty && suffix.count <= 8 && suffix.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        return folder + "/" + name + (keeps ? "." + String(decoding: suffix, as: UTF8.self) : "")
    }

    /// The copy kept for that version, or nil; a copy found is marked used now (its access
    /// time: its mtime stays the one its thumbnails in the local cache were made against).
    public func copy(of path: String, at address: RemoteAddress, size: Int, modified: Int) -> String? {
        let file = file(for: path, at: address, size: size, modified: modified)
        var info = Glibc.stat()
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == size else { return nil }
        // UTIME_NOW and UTIME_OMIT (Linux's values; Glibc's macros do not import).
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        _ = utimensat(AT_FDCWD, file, &times, 0)
        return file
    }

    /// Keeps the whole content `write` produces as the copy of that version: `write` is handed
    /// the temporary file's descriptor and returns false on failure (then nothing is kept).
    /// The copy's path, or nil.
    public func keep(_ path: String, at address: RemoteAddress, size: Int, modified: Int,
                     write: (Int32) async -> Bool) async -> String? {
        guard FolderMaker.make(folder) else { return nil }
        trim(making: size)
        let target = file(for: path, at: address, size: size, modified: modified)
        guard let temporary = try? TemporaryFile.create(template: target + ".XXXXXX.tmp", suffixLength: 4) else { return nil }
        let written = await write(temporary.descriptor)
        Glibc.close(temporary.descriptor)
        guard written, rename(temporary.path, target) == 0 else {
            _ = unlink(temporary.path)
            return nil
        }
        return target
    }

    /// Removes the copies used longest ago until `room` more bytes fit under the limit.
    func trim(making room: Int) {
        guard let directory = opendir(folder) else { return }
        var copies: [(path: String, size: Int, used: Int)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(fileSystemRepresentation: raw.bindMemory(to: CChar.self).baseAddress!) }
            guard !name.hasPrefix(".") else { continue }
            var info = Glibc.stat()
            let path = folder + "/" + name
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { copies.append((path, Int(info.st_size), max(info.st_atim.tv_sec, info.st_mtim.tv_sec))) }
        }
        closedir(directory)
        var total = copies.reduce(0) { $0 + $1.size } + room
        for copy in copies.sorted(by: { $0.used < $1.used }) where total > limit {
            if unlink(copy.path) == 0 { total -= copy.size }
        }
    }
}
