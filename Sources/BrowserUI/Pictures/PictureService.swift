import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

/// Fetches pictures for the UI in the background, progressively (icon, low quality, full), and
/// cancels the ones that scrolled out of view. Results arrive in the inbox.
final class PictureService: Sendable {
    private let generator: ThumbnailGenerator
    private let inbox: Inbox
    private let running = Mutex<[PictureKey: Task<Void, Never>]>([:])

    init(generator: ThumbnailGenerator, inbox: Inbox) {
        self.generator = generator
        self.inbox = inbox
    }

    /// Makes sure exactly these pictures are being fetched (or done): new ones start, the rest stop.
    func want(_ keys: [PictureKey], done: Set<PictureKey>) {
        let wanted = Set(keys)
        running.withLock { tasks in
            for (key, task) in tasks where !wanted.contains(key) {
                task.cancel()
                tasks[key] = nil
            }
            for key in keys where tasks[key] == nil && !done.contains(key) {
                tasks[key] = start(key)
            }
        }
    }

    private func start(_ key: PictureKey) -> Task<Void, Never> {
        var request = ThumbnailRequest(path: key.path, size: Double(key.side), types: key.iconOnly ? [.icon] : [.icon, .lowQuality, .thumbnail])
        request.maximumIconSide = 256
        let generator = self.generator, inbox = self.inbox
        return Task.detached(priority: .userInitiated) { [weak self] in
            do {
                for try await representation in generator.representations(for: request) {
                    inbox.post(.picture(key, representation))
                }
            } catch is CancellationError {
                return
            } catch {
                if !Task.isCancelled { inbox.post(.pictureFailed(key, (error as? ThumbnailError)?.reason ?? "\(error)")) }
            }
            self?.finished(key)
        }
    }

    private func finished(_ key: PictureKey) {
        _ = running.withLock { $0.removeValue(forKey: key) }
    }

    /// Reads the first lines of a text file for Quick Look, off the UI thread, on the volume's
    /// own I/O queue (a dead share blocks only its own calls, and answers "not responding").
    func readText(_ path: String, volume: String) {
        let inbox = self.inbox
        VolumeIO.shared.run(volume: volume, deadline: 5, {
            TextFileReader.firstLines(path: path, maxLines: 500, maxColumns: 400)
        }, completion: { outcome in
            switch outcome {
            case .done(let lines): inbox.post(.textPreview(path: path, lines: lines))
            case .timedOut, .refused: inbox.post(.textPreview(path: path, lines: ["(cannot read: the volume is not responding)"]))
            }
        })
    }
}

/// The start of a text file, decoded and made safe to draw.
enum TextFileReader {
    static func firstLines(path: String, maxLines: Int, maxColumns: Int) -> [String] {
        guard let bytes = FileDescriptorReader.readFile(path, upTo: 64 * 1024) else {
            return ["(cannot read: \(String(cString: strerror(errno))))"]
        }
        return TextPreview.lines(from: bytes, maxLines: maxLines, maxColumns: maxColumns)
    }
}

#if canImport(Glibc)
import Glibc
#endif
