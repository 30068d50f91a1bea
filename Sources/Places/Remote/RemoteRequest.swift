import FileSystemKit
import SystemKit
import ThumbnailKit

/// What the browser's side sends to `qlbrowse serve --stdio` on the remote: one case per
/// request, each with exactly what it needs. `RemoteCodec` puts it in a frame's JSON header (the
/// request id in the frame's head, `WorkerFrame`'s layout); a write's bytes travel as the
/// frame's payload. Paths are the remote's, carried losslessly (`FileSystemBytes`).
package enum RemoteRequest: Codable, Sendable, Equatable {
    /// The first frame on a connection: the protocol version this side speaks; answered `.hello`
    /// with the remote's. Its shape never changes, so two versions can always tell each other.
    case hello(version: Int, software: String)
    /// Stop working on the frame's request (a listing, a thumbnail) as soon as possible.
    case cancel
    /// Makes `path` absolute on the remote (relative to its home folder, as scp does) and
    /// says what is there; answered `.resolved`.
    case resolve(path: String)
    /// Lists a folder; answered with `.entries` batches (packed in the payload), the last
    /// `complete`, or a `.failure`.
    case list(path: String)
    /// Whether a folder can be listed now; answered `.done` or `.failure`.
    case probe(path: String)
    /// What is at a path; answered `.item`.
    case item(path: String)
    /// A range of a file's bytes; answered `.bytes` (the bytes in the payload).
    case read(Read)
    /// The payload as the whole new content of `path`, atomically; answered `.done`.
    case write(path: String)
    /// Renames within a folder, never over a name; answered `.stamp`.
    case rename(Rename)
    /// What is at a path now, for the undo journal's check (version 6); answered `.stamp`.
    case stamp(path: String)
    /// Makes an empty folder or file; answered `.stamp`.
    case make(Make)
    /// Moves an item to the remote's trash; answered `.trashed`.
    case trash(path: String)
    /// Puts a trashed item back; answered `.restored`.
    case restore(TrashCan.Item)
    /// What a folder's volume allows; answered `.capabilities`.
    case capabilities(Capabilities)
    /// One item's best picture, made and cached on the remote at the size asked; answered
    /// `.thumbnail` (PNG in the payload) or `.failure`.
    case thumbnail(Thumbnail)
    /// Lines of a text file for Quick Look, read on the remote a window at a time; answered
    /// `.text` (the lines in the payload).
    case text(Text)
    /// A Quick Look preview (a page, a frame, a region, members, a song's length, a custom
    /// previewer), made by the remote's own workers; answered `.preview` (pictures as PNG) or
    /// `.failure`. Edits are refused: their output is placed on this side.
    case preview(WorkerRequest)
    /// A copy, move, trash or delete done by the remote's `FileOperation` with its own checks;
    /// answered with `.progress` and `.conflict` as it goes, then `.report`.
    case perform(Perform)
    /// The answer to the `.conflict` the operation of the frame's id asked.
    case choose(choice: FileOperation.ConflictChoice, applyToAll: Bool)
    /// Pauses or resumes the operation of the frame's id.
    case pause(Bool)
    /// The payload written at `offset` of `path` (a copy's temporary, made exclusively at offset
    /// 0, never over a name); answered `.done`. With a `mode` (version 7), the file is made 0600
    /// and given `mode` after the last piece (`Place.writeChunk`'s `mode`).
    case append(Append)
    /// The permission bits of `path` set to `mode` (a folder copied between places, once its
    /// contents are in; version 7); answered `.done`.
    case chmod(Chmod)
    /// Thumbnails every file under the roots into the remote's cache, there; answered with
    /// `.batch` events as they come, the last `ended`.
    case batch(Batch)
    /// Watches a folder (the remote's `LocalPlace.watch`): answered with `.changes` under this
    /// request's id, the changes of ~150 ms together, until `cancel`, the folder gone (the last
    /// `.changes` says `gone`) or the link's end. A folder that cannot be watched: `.failure`.
    case watch(path: String)
    /// Finds names below a folder (the remote's `LocalPlace.find`, its own mount table's other
    /// volumes left out): answered with `.found` reports under this request's id, for `query` and
    /// then for each `.findQuery` sent under the same id, until `cancel` (which stops the walk).
    case find(Find)
    /// A new query for the search of the frame's id: ranks what it walked, never walks again.
    case findQuery(String)
    /// Lists the files below a folder that hold a text (the remote's `LocalPlace.findInside`:
    /// ripgrep there): answered with `.foundInside` reports, the last `complete`, or a
    /// `.failure` (no ripgrep there); `cancel` kills ripgrep. Since version 5.
    case findInside(FindInside)

    package struct Find: Codable, Sendable, Equatable {
        package var path: String
        package var showsHidden: Bool
        package var query: String
        /// How many of the best to report (nil: the finder's own 200); `qlbrowse find --best`.
        package var best: Int?
        /// Whether each report says the matches new since the last (`Report.fresh`): `--all`.
        package var streams: Bool?
    }

    package struct FindInside: Codable, Sendable, Equatable {
        package var path: String
        package var query: String
        /// How many paths a report lists at most (all are counted).
        package var limit: Int
    }

    package struct Text: Codable, Sendable, Equatable {
        package var path: String
        package var first: Int
        package var count: Int
    }

    package struct Perform: Codable, Sendable, Equatable {
        package var kind: FileOperation.Kind
        package var sources: [String]
        package var destination: String?
        package var verifiesContent: Bool
    }

    package struct Append: Codable, Sendable, Equatable {
        package var path: String
        package var offset: Int
        package var last: Bool
        package var mode: UInt32?
    }

    package struct Chmod: Codable, Sendable, Equatable {
        package var path: String
        package var mode: UInt32
    }

    package struct Batch: Codable, Sendable, Equatable {
        package var roots: [String]
        package var box: PixelSize
        package var jobs: Int
        package var shard: [Int]?
        package var writesShared: Bool
        package var ignoresStored: Bool
    }

    package struct Read: Codable, Sendable, Equatable {
        package var path: String
        package var offset: Int
        package var length: Int
    }

    package struct Rename: Codable, Sendable, Equatable {
        package var from: String
        package var to: String
    }

    package struct Make: Codable, Sendable, Equatable {
        package var path: String
        package var folder: Bool
    }

    package struct Capabilities: Codable, Sendable, Equatable {
        package var folder: String
        package var trial: Bool
    }

    package struct Thumbnail: Codable, Sendable, Equatable {
        package var path: String
        /// The version the caller listed (mtime and size): a file changed since fails.
        package var modified: Int
        package var size: Int
        /// The box in points and its scale, and the representations wanted (sorted).
        package var box: Double
        package var scale: Double
        package var types: [RepresentationType]
        /// Whether a file changed since it was listed fails (a batch) or is made as it is now.
        package var checksVersion: Bool
    }
}

/// The hello both sides send first: the protocol version and the build, for messages.
package struct RemoteHello: Codable, Sendable, Equatable {
    package var version: Int
    package var software: String

    package init(version: Int, software: String) {
        self.version = version
        self.software = software
    }
}
