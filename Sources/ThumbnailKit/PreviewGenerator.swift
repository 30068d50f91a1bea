#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Previews of a whole file for Quick Look: any page of a document, a video frame at any time, the
/// members of an archive, a custom previewer's output. The counterpart of `ThumbnailGenerator` for QLPreviewController-like
/// screens.
///
/// Like thumbnails, everything that reads the file's content runs in the pool's worker processes,
/// under the same deadline, memory and CPU limits (a hostile file costs one request), one request
/// per worker at a time. Cancelling the calling task cancels the request in its worker (the
/// worker is killed if it does not stop within `WorkerLimits.cancelGraceSeconds`) and the call
/// throws `CancellationError` at once. Other failures throw `ThumbnailError` (`.encrypted`,
/// `.corrupt`, `.unsupported`, `.timedOut`, …) with a reason a user understands. Nothing is cached.
public final class PreviewGenerator: Sendable {
    private let pool: any WorkerBackend

    public convenience init(pool: WorkerPool) {
        self.init(workers: pool)
    }

    /// A generator whose requests go to `workers`: this process's pool or the resident service.
    package init(workers: any WorkerBackend) {
        self.pool = workers
    }

    /// Page `index` (from 0) of a PDF, rendered sharp at the size that fits `box` (poppler draws the
    /// vectors at that size; a small page is enlarged). An index past either end is clamped, so
    /// `Int.max` asks for the last page; `PagePreview.index` says which page is shown. An encrypted
    /// PDF throws `.encrypted`, as thumbnails do.
    public func page(path: String, index: Int, box: PixelSize) async throws -> PagePreview {
        let (answer, payload) = try await answer(to: .page(.init(path: Self.absolute(path), box: Self.box(box), index: max(0, index))))
        guard case .page(let page) = answer else { throw Self.unexpected(answer) }
        return PagePreview(image: try Self.image(page.size, payload), index: page.index, pageCount: page.pageCount, points: page.points)
    }

    /// The video frame at `seconds` (clamped to the video), fitted into `box` as a player shows it.
    ///
    /// For speed when seeking, the worker jumps to the keyframe at or before `seconds` and decodes
    /// forward towards it for at most about 150 ms: with keyframes far apart the frame shown can be
    /// earlier than asked. `FramePreview.shownSeconds` is the time of the frame actually shown. A
    /// file without a video stream (audio) throws `.unsupported`; use `mediaFacts` for its duration.
    public func frame(path: String, seconds: Double, box: PixelSize) async throws -> FramePreview {
        let time = seconds.isFinite ? max(0, seconds) : 0
        let (answer, payload) = try await answer(to: .frame(.init(path: Self.absolute(path), box: Self.box(box), seconds: time)))
        guard case .frame(let frame) = answer else { throw Self.unexpected(answer) }
        return FramePreview(image: try Self.image(frame.size, payload), shownSeconds: frame.shownSeconds, duration: frame.duration)
    }

    /// The duration of an audio or video file and whether it has a moving picture, from its headers
    /// (no decoding): for a position bar.
    public func mediaFacts(path: String) async throws -> MediaFacts {
        let (answer, _) = try await answer(to: .mediaFacts(path: Self.absolute(path)))
        guard case .mediaFacts(let facts) = answer else { throw Self.unexpected(answer) }
        return facts
    }

    /// The members of an archive (zip and its kin — EPUB, ODF, CBZ —, tar with any compression,
    /// 7z, rar, cpio, ar/.deb, ISO 9660: whatever libarchive reads), in archive order, from their
    /// headers only: nothing is extracted or written. At most `limit` members are listed
    /// (`truncated` says when there were more); `note` says, in words, when the count or the total
    /// size looks like an archive bomb. A damaged archive lists what came before the damage with a
    /// note, or throws `.corrupt` when nothing could be read.
    public func members(path: String, limit: Int = 10_000) async throws -> ArchiveListing {
        let request = WorkerRequest.members(.init(path: Self.absolute(path), limit: min(max(1, limit), Self.maximumMemberLimit)))
        let (answer, payload) = try await answer(to: request)
        guard case .members = answer else { throw Self.unexpected(answer) }
        do {
            return try JSONDecoder().decode(ArchiveListing.self, from: Data(payload))
        } catch {
            throw ThumbnailError(.crashed, "the worker sent a malformed member listing")
        }
    }

    /// Which custom previewer (a `.previewer` file, see docs/PREVIEWERS.md) serves the file's exact
    /// type, without running it; nil when none does. The worker sniffs the type (a few reads), so
    /// this is cheap enough to ask for every file Quick Look opens. Built-in views win: the browser
    /// shows the previewer's output when `overridesBuiltIn` is set or when it has no view of its own
    /// for the file, and `PreviewerInfo.mimeType` tells it the type the worker found.
    public func customPreviewer(for path: String) async throws -> PreviewerInfo? {
        let (answer, _) = try await answer(to: .previewer(path: Self.absolute(path)))
        guard case .previewer(let previewer) = answer else { throw Self.unexpected(answer) }
        return previewer
    }

    /// The output of the custom previewer that serves the file's exact type (after alias
    /// resolution; never a parent type's), or nil when there is none, so the caller shows its
    /// built-in view. This runs the previewer whether or not it overrides the built-in view: ask
    /// `customPreviewer(for:)` first to decide.
    ///
    /// The command runs in a worker exactly as `.thumbnailer` commands do: no shell, in bubblewrap
    /// where that works (the system read-only, the file read-only, no network), under the worker's
    /// memory and CPU limits, stopped half a second before the pool's deadline (`.timedOut`, and
    /// the worker lives on) or when the calling task is cancelled. `box` (pixels) is its `%w`/`%h` and
    /// the box a picture is fitted into; `columns`×`rows` (terminal cells, 80×24 when not positive)
    /// its `%c`/`%r`. Text is returned as printed, at most `maximumCustomTextBytes`: it is not
    /// checked for escape sequences or valid UTF-8, so the caller must escape it before showing it
    /// (see `CustomPreview.Content.text`). A failing command throws `.corrupt` with its exit status.
    public func custom(path: String, box: PixelSize, columns: Int, rows: Int) async throws -> CustomPreview? {
        let request = WorkerRequest.custom(.init(path: Self.absolute(path), box: Self.box(box),
                                                 columns: columns > 0 ? columns : 80, rows: rows > 0 ? rows : 24))
        let (answer, payload) = try await answer(to: request)
        guard case .custom(let custom) = answer else { throw Self.unexpected(answer) }
        guard let custom else { return nil }
        switch custom.previewer.output {
        case .text:
            guard payload.count <= Self.maximumCustomTextBytes else { throw ThumbnailError(.crashed, "the worker sent too much text") }
            return CustomPreview(previewer: custom.previewer, content: .text(payload), truncated: custom.truncated)
        case .image:
            let image = try Self.image(custom.size ?? PixelSize(width: 0, height: 0), payload)
            return CustomPreview(previewer: custom.previewer, content: .image(image), truncated: false)
        }
    }

    /// The most text a custom previewer's output is cut to (a screenful of colours is a few kB).
    public static let maximumCustomTextBytes = 1 << 20

    /// A part of a picture enlarged `zoom` times over what fits `box`, `box` large, centred on
    /// the point (`centerX`, `centerY`) given as fractions of the picture (moved in so the part
    /// stays inside it). Decoded with shrink-on-load at the size needed, so a 1:1 look at a large
    /// photo never holds the whole photo at full size twice. `RegionPreview.fullSize` is the whole
    /// picture's size at this zoom, for panning.
    public func region(path: String, box: PixelSize, zoom: Double, centerX: Double, centerY: Double) async throws -> RegionPreview {
        let request = WorkerRequest.region(.init(path: Self.absolute(path), box: Self.box(box), zoom: max(1, zoom),
                                                 centerX: min(1, max(0, centerX)), centerY: min(1, max(0, centerY))))
        let (answer, payload) = try await answer(to: request)
        guard case .region(let region) = answer else { throw Self.unexpected(answer) }
        return RegionPreview(image: try Self.image(region.size, payload), fullSize: region.fullSize)
    }

    /// Does `edit` on the file at `path`, writing the result to `output` (an existing file the
    /// caller made for it, beside the original, with the same suffix). The original is only read.
    public func edit(_ edit: FileEdit, path: String, output: String) async throws -> FileEditResult {
        let (answer, _) = try await answer(to: .edit(.init(path: Self.absolute(path), edit: edit, outputPath: Self.absolute(output))))
        guard case .edit(let result) = answer else { throw Self.unexpected(answer) }
        return result
    }

    /// The most members one listing returns, whatever the caller asks (the reply must fit a frame).
    public static let maximumMemberLimit = 200_000

    private static func absolute(_ path: String) -> String { PathNormalizer.absolute(path) }

    /// The box as the worker gets it: at least one pixel each way.
    private static func box(_ box: PixelSize) -> PixelSize { PixelSize(width: max(1, box.width), height: max(1, box.height)) }

    /// Sends a request and waits for its one answer and the answer's payload.
    private func answer(to request: WorkerRequest) async throws -> (WorkerAnswer, [UInt8]) {
        for try await event in pool.submit(request) {
            if case .preview(let reply) = event { return (reply.answer, reply.payload) }
        }
        try Task.checkCancellation()
        throw ThumbnailError(.crashed, "the worker ended the request without an answer")
    }

    /// An answer of another kind than the request's.
    private static func unexpected(_ answer: WorkerAnswer) -> ThumbnailError {
        ThumbnailError(.crashed, "the worker answered with something else than was asked")
    }

    /// The picture a page, frame or region answer carries, checked against its declared size.
    private static func image(_ size: PixelSize, _ payload: [UInt8]) throws(ThumbnailError) -> PixelImage {
        guard let image = PixelImage(size, payload) else { throw ThumbnailError(.crashed, "the worker sent a malformed image") }
        return image
    }
}
