import BrowserCore
import Dispatch
import FileSystemKit
import Synchronization
import SystemKit
import TerminalGraphics
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// What background work tells the UI thread.
enum UIMessage: Sendable {
    /// What background work found: a listing, a job's progress, a previewer's facts…
    case result(BackgroundResult)
    case picture(PictureKey, Representation)
    case pictureFailed(PictureKey, String)
    /// Lines of a text file Quick Look asked for.
    case textPage(TextPage)
    /// An archive's members Quick Look asked for.
    case members(MembersPage)
    /// The scheduler's task `task` is done with a need of the screen (what it fetched came before).
    case needAnswered(ScreenDemand.Need, task: Int)
    /// A picture encoded for the terminal (`PictureEncoder`), by its drawing id.
    case encoded(id: String, TerminalPicture)
    case interrupt
}

/// The UI thread's mailbox: background work posts, the event loop drains. A pipe wakes the
/// loop's `poll` so messages are handled at once without busy waiting.
final class Inbox: Sendable {
    private let messages = Mutex<[UIMessage]>([])
    let wakeRead: Int32
    private let wakeWrite: Int32

    init() {
        // Close-on-exec: the wake pipe must not leak into workers and `$EDITOR`.
        let pipe = try? SystemPipe.make(nonBlocking: true)
        wakeRead = pipe?.readEnd ?? -1
        wakeWrite = pipe?.writeEnd ?? -1
    }

    func post(_ message: UIMessage) {
        messages.withLock { $0.append(message) }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    func drain() -> [UIMessage] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
        return messages.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }
}
