import FileSystemKit
import SystemKit
import ThumbnailKit

/// What `qlbrowse serve --stdio` answers: one case per answer, each with exactly what it carries.
/// Bytes (a listing's packed entries, a file's range, a thumbnail's PNG) travel as the frame's
/// payload beside the case that says what they are. `RemoteCodec` reads and writes it.
package enum RemoteAnswer: Codable, Sendable, Equatable {
    /// The remote's protocol version and build; sent first, whatever version the other side spoke.
    case hello(version: Int, software: String)
    /// A path made absolute, and what is there.
    case resolved(path: String, item: RemoteItem)
    /// A batch of a listing, packed in the payload (`RemoteListing`); the last says `complete`.
    case entries(complete: Bool)
    /// What is at a path.
    case item(RemoteItem)
    /// A file's bytes, in the payload.
    case bytes
    /// The request is done and has nothing to say.
    case done
    /// A renamed or made item's stamp, for the undo journal.
    case stamp(PathStamp?)
    /// Where a trashed item went.
    case trashed(TrashCan.Item)
    /// Where a restored item went.
    case restored(path: String)
    /// What a volume allows.
    case capabilities(RemoteCapabilities)
    /// A picture: PNG in the payload.
    case thumbnail(Picture)
    /// Lines of a text file from `first`, `count` of them in the payload, each ended by a
    /// newline (a line holds none: `TextFileWindow` cuts at them); `total` once known.
    case text(first: Int, count: Int, total: Int?)
    /// A preview's answer as the remote's worker gave it; with `png`, the picture it carries
    /// is in the payload as PNG (the pixels are made again on this side).
    case preview(answer: WorkerAnswer, png: Bool)
    /// A running operation's progress (at most ten a second).
    case progress(FileOperation.Progress)
    /// A name taken: the operation waits for `.choose` with the frame's id.
    case conflict(FileOperation.Conflict)
    /// The operation's report; ends it.
    case report(FileOperation.Report)
    /// Events of a batch; the last says `ended`.
    case batch(events: [RemoteBatchEvent], ended: Bool)
    /// A watched folder's changes: `count` names in the payload, each ended by a NUL byte (a
    /// name's own bytes, never holding one); `relist` when the watch lost track of names (too
    /// many, or the kernel's queue overflowed) and the folder should be listed again; `gone`
    /// when the folder itself went, which ends the watch.
    case changes(count: Int, relist: Bool, gone: Bool)
    /// A search's best matches so far, relative to its folder; a search never ends by itself
    /// (a new query ranks again after the walk): only its cancel or a failure ends it.
    case found(FileFinder.Report)
    /// A search inside files' paths so far (`.findInside`); the `complete` one ends it.
    case foundInside(FileFinder.Report)
    /// The request failed (a file-system failure, or a thumbnail's). Ends the request.
    case failure(RemoteFailure)

    package struct Picture: Codable, Sendable, Equatable {
        package var type: RepresentationType
        package var source: String
        package var contentType: ContentType
        package var facts: [FileFact]
        /// The payload is JPEG (an opaque picture: a photo's thumbnail), not PNG.
        package var jpeg: Bool?
    }

    /// Whether this answer is the last of its request.
    package var endsRequest: Bool {
        switch self {
        case .entries(let complete): return complete
        case .progress, .conflict, .found: return false
        case .batch(_, let ended): return ended
        case .changes(_, _, let gone): return gone
        case .foundInside(let report): return report.complete
        default: return true
        }
    }
}

/// `PlaceItem` as it travels.
package struct RemoteItem: Codable, Sendable, Equatable {
    package var path: String
    package var isDirectory: Bool
    package var isSymbolicLink: Bool
    package var isRegularFile: Bool
    package var size: Int
    package var modified: Int
    /// The permission bits (protocol version 7); absent from an older remote's answer.
    package var mode: UInt32?

    package init(_ item: PlaceItem) {
        path = item.path
        isDirectory = item.isDirectory
        isSymbolicLink = item.isSymbolicLink
        isRegularFile = item.isRegularFile
        size = item.size
        modified = item.modified
        mode = item.mode
    }

    package var item: PlaceItem {
        PlaceItem(path: path, isDirectory: isDirectory, isSymbolicLink: isSymbolicLink, isRegularFile: isRegularFile, size: size, modified: modified,
                  mode: mode)
    }
}

/// `VolumeCapabilities` as it travels (its forbidden characters as one string).
package struct RemoteCapabilities: Codable, Sendable, Equatable {
    package var isReadOnly: Bool
    package var nameMax: Int
    package var isCaseInsensitive: Bool?
    package var supportsSymlinks: Bool?
    package var maximumFileSize: Int64?
    package var forbiddenCharacters: String

    package init(_ capabilities: VolumeCapabilities) {
        isReadOnly = capabilities.isReadOnly
        nameMax = capabilities.nameMax
        isCaseInsensitive = capabilities.isCaseInsensitive
        supportsSymlinks = capabilities.supportsSymlinks
        maximumFileSize = capabilities.maximumFileSize
        forbiddenCharacters = String(capabilities.forbiddenCharacters)
    }

    package var capabilities: VolumeCapabilities {
        VolumeCapabilities(isReadOnly: isReadOnly, nameMax: nameMax, isCaseInsensitive: isCaseInsensitive, supportsSymlinks: supportsSymlinks,
                           maximumFileSize: maximumFileSize, forbiddenCharacters: Array(forbiddenCharacters))
    }
}

/// A failure as it travels: a `FileSystemError`'s fields, or a `ThumbnailError`'s.
package struct RemoteFailure: Codable, Sendable, Equatable {
    /// `FileSystemError.Code`'s raw value, or nil for a thumbnail's failure.
    package var code: String?
    package var path: String
    package var call: String
    package var errno: Int32
    package var context: String?
    /// `ThumbnailError.Code`, for a thumbnail's failure.
    package var thumbnailCode: ThumbnailError.Code?

    package init(_ error: FileSystemError) {
        code = error.code.rawValue
        path = error.path
        call = error.call
        errno = error.errno
        context = error.context
        thumbnailCode = nil
    }

    package init(_ error: ThumbnailError) {
        code = nil
        path = ""
        call = ""
        errno = 0
        context = error.reason
        thumbnailCode = error.code
    }

    package var fileSystemError: FileSystemError {
        if let thumbnailCode { return FileSystemError(code: thumbnailCode == .cancelled ? .cancelled : .other, path: path, context: context) }
        return FileSystemError(code: code.flatMap(FileSystemError.Code.init(rawValue:)) ?? .other, path: path, call: call, errno: errno, context: context)
    }

    package var thumbnailError: ThumbnailError {
        if let thumbnailCode { return ThumbnailError(thumbnailCode, context ?? "") }
        let error = fileSystemError
        return ThumbnailError(error.code == .cancelled ? .cancelled : .unreadable, error.message)
    }
}
