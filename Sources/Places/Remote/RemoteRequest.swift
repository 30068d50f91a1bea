import FileSystemKit
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
