import SystemKit
import CArchive
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Lists the members of an archive through libarchive (every format and filter it reads: zip and
/// its kin, tar with any compression, 7z, rar, cpio, ar, ISO 9660…) from the headers alone:
/// `archive_read_next_header` then `archive_read_data_skip`, so nothing is inflated into memory
/// or written anywhere (a compressed tar is still decompressed to be skipped through: the time
/// budget bounds that).
public struct ArchiveLister {
    /// After the limit, headers are still counted (not kept) up to this many, for the note.
    static let countingLimit = 1_000_000
    /// How long listing and counting may take; past it the listing stops with a note, well inside
    /// the worker's deadline.
    public static let timeBudget = Duration.seconds(4)
    /// Members that unpack to this many times the archive's size, and at least `bombSize` bytes,
    /// earn the archive-bomb note.
    static let bombRatio: Int64 = 100
    static let bombSize: Int64 = 256 << 20

    public init() {}

    public func list(path: String, limit: Int, cancellation: CancellationFlag) throws(ThumbnailError) -> ArchiveListing {
        try LazyLibraries.require(CArchive_library_error())
        guard let archive = archive_read_new() else { throw ThumbnailError(.tooLarge, "out of memory") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
        guard archive_read_open_filename(archive, path, 64 << 10) == ARCHIVE_OK else {
            throw Self.error(archive, reading: "the archive")
        }
        var walk = ArchiveWalk(limit: limit)
        let begun = ContinuousClock.now
        var entry: OpaquePointer?
        while walk.count < Self.countingLimit {
            try cancellation.check()
            if ContinuousClock.now - begun > Self.timeBudget { walk.stoppedEarly = "listing stopped after \(Self.timeBudget)"; break }
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                if walk.count == 0 { throw Self.error(archive, reading: "the archive") }
                walk.stoppedEarly = "the archive is damaged after member \(walk.count): \(Self.message(archive))"
                break
            }
            walk.add(Self.member(entry), encrypted: archive_entry_is_encrypted(entry) != 0)
            if archive_read_data_skip(archive) == ARCHIVE_FATAL {
                walk.stoppedEarly = "the archive is damaged in member \(walk.count): \(Self.message(archive))"
                break
            }
        }
        let format = archive_format_name(archive).map { String(cString: $0) }
        return walk.listing(archiveSize: Self.fileSize(path), format: walk.count == 0 ? nil : format)
    }

    private static func member(_ entry: OpaquePointer) -> ArchiveMember {
        let name = archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)
        let path = name.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? "?"
        return ArchiveMember(path: path, size: archive_entry_size_is_set(entry) != 0 ? max(0, archive_entry_size(entry)) : 0,
                             modified: archive_entry_mtime_is_set(entry) != 0 ? Int64(archive_entry_mtime(entry)) : nil,
                             isDirectory: CArchive_is_directory(entry) != 0, isSymlink: CArchive_is_symlink(entry) != 0)
    }

    private static func message(_ archive: OpaquePointer) -> String {
        let text = archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
        return text.split(separator: " ").joined(separator: " ")
    }

    private static func error(_ archive: OpaquePointer, reading what: String) -> ThumbnailError {
        let detail = message(archive)
        if detail.contains("Unrecognized archive format") { return ThumbnailError(.unsupported, "not an archive qlbrowse can list") }
        if [ENOENT, EACCES, EIO, ENOTCONN, ESTALE].contains(archive_errno(archive)) {
            return ThumbnailError(.unreadable, "cannot read the file: \(String(cString: strerror(archive_errno(archive))))")
        }
        return ThumbnailError(.corrupt, "cannot read \(what): \(detail)")
    }

    private static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
