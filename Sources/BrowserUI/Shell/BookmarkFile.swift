import BrowserCore
import Dispatch
import FileSystemKit
import Places
import SystemKit
import ThumbnailKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The bookmarks on disk, `$XDG_STATE_HOME/qlbrowse/bookmarks` (JSON, written whole to a
/// temporary and renamed, so a crash never leaves half a file), and the checks of bookmarked
/// folders, each through its volume's I/O with a deadline: a dead share answers "not responding",
/// never a hang. Answers come back through the inbox.
final class BookmarkFile: Sendable {
    let path: String
    private let queue = DispatchQueue(label: "qlbrowse.bookmarks")
    /// How long a bookmarked folder may take to answer.
    static let deadline = 2.0

    init(path: String = ProcessEnvironment.current.stateHome + "/qlbrowse/bookmarks") {
        self.path = path
    }

    func load(inbox: Inbox) {
        let path = self.path
        queue.async {
            do {
                let list = try Self.read(path)
                inbox.post(.result(.bookmarksLoaded(list, problem: nil)))
            } catch {
                inbox.post(.result(.bookmarksLoaded([], problem: "the bookmarks in \(TerminalText.escaped(path)) cannot be read; b sets new ones (the file is kept until then)")))
            }
        }
    }

    /// The bookmarks in the file at `path`; none when there is no file.
    private static func read(_ path: String) throws -> [Bookmark] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        guard status.st_size < 4 << 20 else { throw EditError("too large") }
        let list = try JSONDecoder().decode([Bookmark].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        return list.filter { $0.key.count == 1 && $0.folder.hasPrefix("/") }
    }

    /// Writes `list`; `keepingTheFiles`: with the file's bookmarks under keys `list` does not use
    /// (the list was made before the file was read).
    func save(_ list: [Bookmark], keepingTheFiles: Bool = false, inbox: Inbox) {
        let path = self.path
        queue.async {
            do {
                var list = list
                if keepingTheFiles, let kept = try? Self.read(path) {
                    let keys = Set(list.map(\.key))
                    list = (list + kept.filter { !keys.contains($0.key) }).sorted { $0.key < $1.key }
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try AtomicFileWriter.writeState(Array(try encoder.encode(list)), to: path)
            } catch {
                inbox.post(.result(.showMessage("cannot keep the bookmarks in \(TerminalText.escaped(path)): \((error as? ThumbnailError)?.reason ?? "\(error)")")))
            }
        }
    }

    /// Waits, `seconds` at most, for the saves asked so far: quitting right after `b` must not
    /// lose the bookmark (the process would end before the queue wrote it).
    func waitUntilSaved(seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + seconds)
    }

    /// Checks `bookmark`'s folder in `place`; the state goes there if it answers.
    func check(_ bookmark: Bookmark, volumes: [Volume], place: any Place, inbox: Inbox) {
        Self.probe(bookmark.folder, volumes: volumes, place: place) { problem in inbox.post(.result(.bookmarkChecked(bookmark, problem: problem))) }
    }

    /// Checks every folder of the bookmarks list.
    func check(_ folders: [String], volumes: [Volume], place: any Place, inbox: Inbox) {
        for folder in Set(folders) {
            Self.probe(folder, volumes: volumes, place: place) { problem in inbox.post(.result(.bookmarksChecked([BookmarkCheck(folder: folder, problem: problem)]))) }
        }
    }

    /// Why `folder` cannot be listed now, or nil when it can.
    private static func probe(_ folder: String, volumes: [Volume], place: any Place, answer: @escaping @Sendable (String?) -> Void) {
        let volume = Volume.containing(folder, in: volumes)
        Task.detached {
            do throws(FileSystemError) {
                let item = try await PlaceCall.within(seconds: deadline, folder) { () throws(FileSystemError) in try await place.item(at: folder) }
                answer(item.isDirectory ? nil : "not a folder any more")
            } catch where error.code == .notResponding {
                answer(error.wasRefused ? "its volume is not responding (earlier calls are still stuck)" : "its volume is not responding")
            } catch where error.code == .notFound && (volume == nil || volume?.mountPoint == "/") {
                // Gone without its volume: most often a stick or share not mounted now.
                answer("not there (is its volume mounted?)")
            } catch {
                answer(error.message)
            }
        }
    }
}
