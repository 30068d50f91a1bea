import SystemKit
import Testing
@testable import ThumbnailKit

#if canImport(Glibc)
import Glibc
#endif

/// The one codec of the worker and service protocol: every request and every answer comes back
/// from its frame as it went in, a header this build does not know is an error that names it,
/// and the service's id rewrite leaves every other byte of a frame as the worker wrote it.
@Suite struct WorkerCodecTests {
    static let box = PixelSize(width: 256, height: 192)

    /// One request of every kind (`requestName` has no default, so a new case must come here).
    static let requests: [WorkerRequest] = [
        .hello(identity: "v2 qlbrowse=/usr/bin/qlbrowse@1:2:3:4.5"),
        .cancel,
        .thumbnails(.init(path: "/p/a\u{EF80}.jpg", box: box, types: [.thumbnail, .lowQuality], contentType: ContentType("image/jpeg"), wantsFacts: false)),
        .thumbnails(.init(path: "/p/b.png", box: box, types: [.icon], contentType: nil, wantsFacts: true)),
        .page(.init(path: "/p/doc.pdf", box: box, index: 7)),
        .frame(.init(path: "/p/clip.mp4", box: box, seconds: 12.25)),
        .mediaFacts(path: "/p/song.flac"),
        .members(.init(path: "/p/a.zip", limit: 10_000)),
        .previewer(path: "/p/notes.md"),
        .custom(.init(path: "/p/notes.md", box: box, columns: 80, rows: 24)),
        .region(.init(path: "/p/photo.jpg", box: box, zoom: 2.5, centerX: 0.25, centerY: 0.75)),
        .edit(.init(path: "/p/photo.jpg", edit: .rotate(quarterTurns: 3, flip: true), outputPath: "/p/.photo-edit.jpg")),
        .edit(.init(path: "/p/clip.mp4", edit: .trim(start: 1.5, end: 9), outputPath: "/p/.clip-edit.mp4")),
    ]

    static let previewer = PreviewerInfo(name: "glow", path: "/etc/qlbrowse/previewers/glow.previewer", mimeType: "text/markdown",
                                         output: .text, overridesBuiltIn: true)

    /// One answer of every kind (`answerName` has no default, so a new case must come here).
    static let answers: [WorkerAnswer] = [
        .hello(identity: "v2 qlbrowse=/usr/bin/qlbrowse@1:2:3:4.5"),
        .replaced(reason: "the service is another build and is going away"),
        .contentType(ContentType("image/jpeg")),
        .image(.init(type: .lowQuality, size: PixelSize(width: 2, height: 1), source: "exif", facts: [FileFact("Camera", "X100V")])),
        .page(.init(size: PixelSize(width: 2, height: 1), index: 3, pageCount: 9)),
        .frame(.init(size: PixelSize(width: 2, height: 1), shownSeconds: 11.96, duration: 60.5)),
        .frame(.init(size: PixelSize(width: 2, height: 1), shownSeconds: 0, duration: nil)),
        .mediaFacts(MediaFacts(duration: 215.3, hasVideo: false)),
        .members,
        .previewer(previewer),
        .previewer(nil),
        .custom(.init(previewer: previewer, size: nil, truncated: true)),
        .custom(nil),
        .region(.init(size: PixelSize(width: 2, height: 1), fullSize: PixelSize(width: 4000, height: 3000))),
        .edit(FileEditResult(notes: ["starts at 0:01.4, the nearest keyframe"], start: 1.4, end: 9)),
        .done,
        .failure(.init(ThumbnailError(.encrypted, "the PDF is encrypted", contentType: ContentType("application/pdf")))),
    ]

    static func requestName(_ request: WorkerRequest) -> String {
        switch request {
        case .hello: "hello"
        case .cancel: "cancel"
        case .thumbnails: "thumbnails"
        case .page: "page"
        case .frame: "frame"
        case .mediaFacts: "mediaFacts"
        case .members: "members"
        case .previewer: "previewer"
        case .custom: "custom"
        case .region: "region"
        case .edit: "edit"
        }
    }

    static func answerName(_ answer: WorkerAnswer) -> String {
        switch answer {
        case .hello: "hello"
        case .replaced: "replaced"
        case .contentType: "contentType"
        case .image: "image"
        case .page: "page"
        case .frame: "frame"
        case .mediaFacts: "mediaFacts"
        case .members: "members"
        case .previewer: "previewer"
        case .custom: "custom"
        case .region: "region"
        case .edit: "edit"
        case .done: "done"
        case .failure: "failure"
        }
    }

    @Test func everyRequestComesBackFromItsFrame() throws {
        #expect(Set(Self.requests.map(Self.requestName)).count == 11, "one sample of every case")
        for (index, request) in Self.requests.enumerated() {
            let deadline = index.isMultiple(of: 2) ? WorkerDeadline() : WorkerDeadline(seconds: 4.5, monotonicNanos: 123_456_789_012)
            let frame = try #require(try throughAPipe(WorkerCodec.frame(request, id: UInt64(index) << 40 | 7, deadline: deadline)))
            #expect(frame.id == UInt64(index) << 40 | 7)
            #expect(frame.payload.isEmpty)
            let (back, backDeadline) = try WorkerCodec.request(in: frame)
            #expect(back == request)
            #expect(backDeadline == deadline)
        }
    }

    @Test func everyAnswerComesBackFromItsFrameWithItsPayload() throws {
        #expect(Set(Self.answers.map(Self.answerName)).count == 14, "one sample of every case")
        for (index, answer) in Self.answers.enumerated() {
            let payload: [UInt8] = index.isMultiple(of: 3) ? [] : Array(repeating: UInt8(index), count: 8)
            let frame = try #require(try throughAPipe(WorkerCodec.frame(answer, id: UInt64.max - UInt64(index), payload: payload)))
            #expect(frame.id == UInt64.max - UInt64(index))
            #expect(frame.payload == payload)
            #expect(try WorkerCodec.answer(in: frame) == answer)
        }
    }

    @Test func onlyPreviewAnswersDoneAndFailureEndARequest() {
        let ending = Self.answers.filter(\.endsRequest).map(Self.answerName)
        #expect(Set(ending) == ["page", "frame", "mediaFacts", "members", "previewer", "custom", "region", "edit", "done", "failure"])
    }

    @Test func anUnknownCaseIsAnErrorThatNamesIt() throws {
        let unknownRequest = WorkerFrame(id: 3, header: Array(#"{"request":{"teleport":{"path":"/a"}}}"#.utf8))
        #expect(throws: WorkerCodecError.unknownCase(what: "request", name: "teleport")) { try WorkerCodec.request(in: unknownRequest) }
        let unknownAnswer = WorkerFrame(id: 3, header: Array(#"{"hologram":{"_0":{}}}"#.utf8))
        #expect(throws: WorkerCodecError.unknownCase(what: "answer", name: "hologram")) { try WorkerCodec.answer(in: unknownAnswer) }
        #expect("\(WorkerCodecError.unknownCase(what: "answer", name: "hologram"))" == "unknown answer “hologram”")

        // A known case with a payload of the wrong shape, JSON that is no object, no JSON at all.
        for header in [#"{"request":{"page":{"_0":{"path":"/a.pdf"}}}}"#, #"{"request":7}"#, "[]", "not json", ""] {
            #expect(Self.isMalformed { try WorkerCodec.request(in: WorkerFrame(id: 1, header: Array(header.utf8))) }, "\(header)")
        }
        for header in [#"{"image":{"_0":{"type":"thumbnail"}}}"#, #"{"done":{},"failure":{}}"#, "{}", "\u{FF}"] {
            #expect(Self.isMalformed { try WorkerCodec.answer(in: WorkerFrame(id: 1, header: Array(header.utf8))) }, "\(header)")
        }
    }

    @Test func rewritingTheIdChangesThoseEightBytesAndNothingElse() throws {
        let pixels = (0..<64).map { UInt8($0 * 3 % 256) }
        let answer = WorkerAnswer.image(.init(type: .thumbnail, size: PixelSize(width: 4, height: 4), source: "vips", facts: [FileFact("Size", "4 × 4")]))
        let original = WorkerCodec.frame(answer, id: 0x0102_0304_0506_0708, payload: pixels)
        var forwarded = original
        forwarded.id = 0xA1B2_C3D4_E5F6_0718
        let before = original.bytes, after = forwarded.bytes
        #expect(before.count == after.count)
        #expect(Array(after[8..<16]) == [0x18, 0x07, 0xF6, 0xE5, 0xD4, 0xC3, 0xB2, 0xA1], "little-endian, after the two lengths")
        #expect(Array(before[..<8]) == Array(after[..<8]))
        #expect(Array(before[16...]) == Array(after[16...]), "the header and the payload as the worker wrote them")
        let read = try #require(try throughAPipe(forwarded))
        #expect(read.id == 0xA1B2_C3D4_E5F6_0718)
        #expect(try WorkerCodec.answer(in: read) == answer && read.payload == pixels)
    }

    @Test func aFailureFrameSaysWhyInTheCallersWords() throws {
        let cancelled = try WorkerCodec.answer(in: WorkerCodec.failureFrame(id: 1, error: CancellationError()))
        guard case .failure(let failure) = cancelled else { Issue.record("\(cancelled)"); return }
        #expect(failure.code == .cancelled)
        let timedOut = ThumbnailError(.timedOut, "gave up after 10.0 s", contentType: ContentType("video/mp4"))
        #expect(try WorkerCodec.answer(in: WorkerCodec.failureFrame(id: 2, error: timedOut)) == .failure(.init(timedOut)))
    }

    private static func isMalformed(_ body: () throws -> Any) -> Bool {
        do {
            _ = try body()
            return false
        } catch {
            if case .malformed? = error as? WorkerCodecError { return true }
            return false
        }
    }

    /// The frame as it comes out of a pipe it was written to.
    private func throughAPipe(_ frame: WorkerFrame) throws -> WorkerFrame? {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        try FrameCodec.write(frame, to: fds[1])
        close(fds[1])
        return try FrameCodec.read(from: fds[0])
    }
}
