import BrowserCore
import FileSystemKit
import Places
import Synchronization
import SystemKit
import ThumbnailKit

/// Fetches pictures for the UI in the background, progressively (icon, low quality, full), and
/// cancels the ones that scrolled out of view. Results arrive in the inbox. Every picture and
/// Quick Look view comes from the browser's place (`fetchThumbnails`, `previews`): made where
/// the files are, with the place's cache, so a remote place needs nothing here.
final class PictureService: Sendable {
    private let place: any Place
    private let inbox: Inbox
    private let running = Mutex<[PictureKey: Task<Void, Never>]>([:])

    init(place: any Place, inbox: Inbox) {
        self.place = place
        self.inbox = inbox
    }

    /// Quick Look's previews of `path`, made where it is (a remote tab's on its remote), and
    /// the path to ask them for; or why there are none.
    private static func previews(_ place: any Place, _ path: String) throws(ThumbnailError) -> (PreviewGenerator, String) {
        if let router = place as? PlaceRouter {
            guard let found = router.previews(for: path) else { throw ThumbnailError(.unsupported, "no previews are made there") }
            return found
        }
        guard let previews = place.previews else { throw ThumbnailError(.unsupported, "\(place.name) makes no previews") }
        return (previews, path)
    }

    /// Makes sure exactly these pictures are being fetched (or done): new ones start, the rest stop.
    func want(_ keys: [PictureKey], done: Set<PictureKey>) {
        let wanted = Set(keys)
        running.withLock { tasks in
            for (key, task) in tasks where !wanted.contains(key) {
                // A frame on its way while a video plays is let finish: shown late beats never shown.
                if key.isFrame, wanted.contains(where: { $0.showsSameMovingPicture(as: key) }) { continue }
                task.cancel()
                tasks[key] = nil
            }
            for key in keys where tasks[key] == nil && !done.contains(key) {
                // One frame at a time per picture: the newest wanted starts when the last is in.
                if key.isFrame, tasks.keys.contains(where: { $0.showsSameMovingPicture(as: key) }) { continue }
                tasks[key] = start(key)
            }
        }
    }

    private func start(_ key: PictureKey) -> Task<Void, Never> {
        if key.part != .whole { return startPart(key) }
        var options = ThumbnailOptions(size: Double(key.side), types: key.iconOnly ? [.icon] : [.icon, .lowQuality, .thumbnail], concurrency: 1)
        options.progressive = true
        options.maximumIconSide = 256
        // The picture of the file as it is now: a changed file's pictures are forgotten and asked again.
        options.checksVersion = false
        options.priority = .userInitiated
        let place = self.place, inbox = self.inbox, item = key.item
        return Task.detached(priority: .userInitiated) { [weak self] in
            do {
                for try await representation in place.thumbnails(of: item, options: options) {
                    inbox.post(.picture(key, representation))
                }
            } catch {
                if Task.isCancelled { return }
                inbox.post(.pictureFailed(key, (error as? ThumbnailError)?.reason ?? "\(error)"))
            }
            // Cancelled (scrolled away): the key is no longer this task's.
            if Task.isCancelled { return }
            self?.finished(key)
        }
    }

    /// A page or a frame for Quick Look, sharp at its box; what it tells of the file's length
    /// (pages, duration) goes to the state.
    private func startPart(_ key: PictureKey) -> Task<Void, Never> {
        let place = self.place, inbox = self.inbox
        let box = key.box ?? PixelSize(width: key.side, height: key.side)
        return Task.detached(priority: .userInitiated) { [weak self] in
            do {
                let (previews, path) = try Self.previews(place, key.path)
                let image: PixelImage, source: String, facts: QuickLookFacts
                switch key.part {
                case .page(let index):
                    let page = try await previews.page(path: path, index: index, box: box)
                    (image, source, facts) = (page.image, "poppler, page \(page.index + 1)", QuickLookFacts(pageCount: page.pageCount, pagePoints: page.points.map { [page.index: $0] } ?? [:]))
                case .frame(let milliseconds):
                    let frame = try await previews.frame(path: path, seconds: Double(milliseconds) / 1000, box: box)
                    (image, source, facts) = (frame.image, "libav at \(DisplayFormat.clock(frame.shownSeconds))", QuickLookFacts(duration: frame.duration))
                case .custom:
                    guard case .image(let picture)? = try await previews.custom(path: path, box: box, columns: 0, rows: 0)?.content else { return }
                    (image, source, facts) = (picture, "custom previewer", QuickLookFacts())
                case .region(let zoom, let x, let y):
                    let region = try await previews.region(path: path, box: box, zoom: Double(zoom), centerX: Double(x) / 1000, centerY: Double(y) / 1000)
                    (image, source, facts) = (region.image, "libvips at \(zoom)×", QuickLookFacts())
                case .whole: return
                }
                let type = ContentTypeTable.type(forFileName: key.path) ?? ContentType("application/octet-stream")
                inbox.post(.picture(key, Representation(type: .thumbnail, image: image, source: source, contentType: type)))
                inbox.post(.result(.quickLookFacts(path: key.path, facts)))
            } catch is CancellationError {
                return
            } catch {
                if !Task.isCancelled { inbox.post(.pictureFailed(key, (error as? ThumbnailError)?.reason ?? "\(error)")) }
            }
            self?.finished(key)
        }
    }

    /// Whether a custom previewer shows this file in Quick Look: when its config says it
    /// overrides the built-in view, or when there is none (`hasBuiltIn` false).
    func customPreviewer(_ path: String, hasBuiltIn: Bool) async {
        guard case let (previews, inner)? = try? Self.previews(place, path), let info = try? await previews.customPreviewer(for: inner), info.overridesBuiltIn || !hasBuiltIn else { return }
        inbox.post(.result(.quickLookFacts(path: path, QuickLookFacts(custom: info.output == .text ? .text : .picture))))
    }

    /// A custom previewer's text for Quick Look: its colours kept, anything else it printed shown
    /// as text, never sent to the terminal.
    func customText(_ path: String, columns: Int, rows: Int) async {
        let page: TextPage
        do {
            let (previews, inner) = try Self.previews(place, path)
            guard case .text(let bytes)? = try await previews.custom(path: inner, box: PixelSize(width: 1, height: 1), columns: columns, rows: rows)?.content else { return }
            var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { StyledLine(highlighted: String($0)) }
            if lines.last?.runs.isEmpty == true { lines.removeLast() }  // the newline ending the output
            page = TextPage(path: path, first: 0, lines: lines, total: lines.count)
        } catch {
            // Cancelled (Quick Look moved on): nothing is said, and the file is asked again when shown again.
            if Task.isCancelled { return }
            page = TextPage(path: path, first: 0, lines: [], total: nil, problem: "the previewer failed: " + ((error as? ThumbnailError)?.reason ?? "\(error)"))
        }
        inbox.post(.textPage(page))
        inbox.post(.result(.quickLookFacts(path: path, QuickLookFacts(lineCount: page.total))))
    }

    /// An archive's members for Quick Look, listed in a worker (headers only).
    func listMembers(_ path: String) async {
        let page: MembersPage
        do {
            let (previews, inner) = try Self.previews(place, path)
            page = MembersPage(path: path, listing: try await previews.members(path: inner, limit: 20_000))
        } catch {
            if Task.isCancelled { return }
            page = MembersPage(path: path, problem: "cannot list: " + ((error as? ThumbnailError)?.reason ?? "\(error)"))
        }
        inbox.post(.members(page))
        inbox.post(.result(.quickLookFacts(path: path, QuickLookFacts(lineCount: page.rows.count + 1))))
    }

    /// The length of a song or video, for Quick Look's position bar.
    func mediaFacts(_ path: String) async {
        guard case let (previews, inner)? = try? Self.previews(place, path), let facts = try? await previews.mediaFacts(path: inner), let duration = facts.duration else { return }
        inbox.post(.result(.quickLookFacts(path: path, QuickLookFacts(duration: duration))))
    }

    private func finished(_ key: PictureKey) {
        _ = running.withLock { $0.removeValue(forKey: key) }
    }

    /// Reads `count` lines of a text file from `line` for Quick Look (the last ones when `line`
    /// is past the end), made visible and coloured, through the place (on a local volume, on its
    /// own I/O queue: a dead share answers "not responding"; on a remote, read there and only the
    /// lines cross). `rows` is the screen's height, for where a jump to the end lands.
    func readText(_ path: String, from line: Int, count: Int, rows: Int) async {
        let page: TextPage
        do throws(FileSystemError) {
            page = TextPage.make(path, try await place.textLines(path, from: line, count: count))
        } catch {
            if error.code == .cancelled, Task.isCancelled { return }
            page = TextPage.failed(path, from: line, error)
        }
        inbox.post(.textPage(page))
        let landed = line >= QuickLookPosition.end ? page.total.map { max(0, $0 - rows) } : nil
        inbox.post(.result(.quickLookFacts(path: path, QuickLookFacts(lineCount: page.total, firstLine: landed))))
    }
}

#if canImport(Glibc)
import Glibc
#endif
