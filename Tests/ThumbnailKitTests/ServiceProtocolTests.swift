import SystemKit
import Testing
@testable import ThumbnailKit

#if canImport(Glibc)
import Glibc
#endif

/// The pure parts of the resident service: where it listens, what makes two builds the same, and
/// the frames its events travel in.
@Suite struct ServiceProtocolTests {
    @Test func theSocketLivesInTheRuntimeFolderElseInAFolderOfTheUserInTmp() {
        let runtime = ProcessEnvironment(["XDG_RUNTIME_DIR": "/run/user/1000/"])
        #expect(ServiceEndpoint.folder(environment: runtime, uid: 1000) == "/run/user/1000/qlbrowse")
        #expect(ServiceEndpoint(folder: "/run/user/1000/qlbrowse").socketPath == "/run/user/1000/qlbrowse/service.sock")
        #expect(ServiceEndpoint.folder(environment: ProcessEnvironment([:]), uid: 1000) == "/tmp/qlbrowse-1000")
        #expect(ServiceEndpoint.folder(environment: ProcessEnvironment(["XDG_RUNTIME_DIR": "relative"]), uid: 7) == "/tmp/qlbrowse-7",
                "a relative XDG_RUNTIME_DIR is ignored, as the specification says")
    }

    @Test func identitiesDifferWithTheProgramFilesAndTheWorkersSettingsOnly() {
        let files = [(role: "qlbrowse", stamp: "/usr/bin/qlbrowse@1:2:3:4.5"), (role: "worker", stamp: "/usr/libexec/w@1:9:3:4.5")]
        let base = ProcessEnvironment(["HOME": "/home/ann", "PATH": "/usr/bin"])
        let identity = ServiceIdentity.describe(files: files, environment: base)
        #expect(identity == ServiceIdentity.describe(files: files, environment: base))
        #expect(identity.hasPrefix("v\(ServiceIdentity.protocolVersion) "))
        // An unrelated variable (fzf's, lf's) does not make another service, nor another PATH (a pyenv shell).
        #expect(identity == ServiceIdentity.describe(files: files, environment: ProcessEnvironment(base.variables.merging(["FZF_PREVIEW_LINES": "20"]) { $1 })))
        #expect(identity == ServiceIdentity.describe(files: files, environment: ProcessEnvironment(base.variables.merging(["PATH": "/home/ann/.pyenv/shims:/usr/bin"]) { $1 })))
        #expect(identity != ServiceIdentity.describe(files: files, environment: ProcessEnvironment(base.variables.merging(["QLBROWSE_PREFER_EXTERNAL": "all"]) { $1 })))
        var rebuilt = files
        rebuilt[1].stamp = "/usr/libexec/w@1:10:3:4.6"
        #expect(identity != ServiceIdentity.describe(files: rebuilt, environment: base), "a new worker file is another build")
    }

    @Test func aRunningProgramKeepsItsIdentity() {
        let path = "/proc/self/exe"
        #expect(ServiceIdentity.stamp(of: path) == ServiceIdentity.stamp(of: path))
        #expect(ServiceIdentity.stamp(of: "/nonexistent/worker") == "/nonexistent/worker@missing")
    }

    @Test func eventsSurviveTheirFrames() throws {
        let image = PixelImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        let events: [WorkerEvent] = [.contentType(ContentType("image/png")),
                                     .image(.thumbnail, image, source: "vips", facts: [])]
        let frames = [WorkerCodec.frame(.contentType(ContentType("image/png")), id: 9),
                      WorkerCodec.frame(.image(.init(type: .thumbnail, size: image.size, source: "vips", facts: [])), id: 9, payload: image.pixels)]
        for (event, frame) in zip(events, frames) {
            let (message, payload) = try #require(try decode(frame))
            #expect(message.id == 9)
            guard case .event(let back) = WorkerEvent.meaning(of: try WorkerCodec.answer(in: message), payload: payload) else {
                Issue.record("\(event) did not come back as an event")
                continue
            }
            switch (event, back) {
            case (.contentType(let a), .contentType(let b)): #expect(a == b)
            case (.image(let t, let a, let s, _), .image(let u, let b, let r, _)): #expect(t == u && a == b && s == r)
            default: Issue.record("\(event) came back as \(back)")
            }
        }
        var page = WorkerCodec.frame(WorkerAnswer.page(.init(size: PixelSize(width: 1, height: 1), index: 2, pageCount: 3)), id: 3, payload: [0])
        page.id = 4
        let (reply, _) = try #require(try decode(page))
        guard case .last(.preview(let preview)) = WorkerEvent.meaning(of: try WorkerCodec.answer(in: reply), payload: [0]) else {
            Issue.record("a preview reply ends its request")
            return
        }
        guard case .page(let shown) = preview.answer else { Issue.record("a page came back as \(preview.answer)"); return }
        #expect(shown.index == 2 && reply.id == 4)
    }

    @Test func theEndOfARequestSaysWhy() throws {
        let (done, _) = try #require(try decode(WorkerCodec.frame(.done, id: 5)))
        guard case .end(nil) = WorkerEvent.meaning(of: try WorkerCodec.answer(in: done), payload: []) else { Issue.record("done"); return }
        let failure = ThumbnailError(.timedOut, "gave up after 1.0 s", contentType: ContentType("image/jpeg"))
        for (error, code, reason) in [(failure as Error, ThumbnailError.Code.timedOut, "gave up after 1.0 s"),
                                      (CancellationError() as Error, .cancelled, nil)] {
            let (message, _) = try #require(try decode(WorkerCodec.failureFrame(id: 5, error: error)))
            guard case .end(let back?) = WorkerEvent.meaning(of: try WorkerCodec.answer(in: message), payload: []) else {
                Issue.record("\(error) did not end the request with an error")
                continue
            }
            #expect(back.code == code)
            if let reason { #expect(back.reason == reason && back.contentType == ContentType("image/jpeg")) }
        }
        let bad = WorkerAnswer.image(.init(type: .thumbnail, size: PixelSize(width: 10, height: 10), source: "vips", facts: []))
        guard case .end(let malformed?) = WorkerEvent.meaning(of: bad, payload: [1, 2]) else { Issue.record("malformed"); return }
        #expect(malformed.code == .crashed)
    }

    @Test func theServiceRefusesEditsAndServesEverythingElse() {
        let edit = WorkerRequest.edit(.init(path: "/a.jpg", edit: .rotate(quarterTurns: 1, flip: false), outputPath: "/a-1.jpg"))
        #expect(ServiceSession.refusal(of: edit)?.code == .unsupported)
        let page = WorkerRequest.page(.init(path: "/a.pdf", box: PixelSize(width: 256, height: 256), index: 0))
        #expect(ServiceSession.refusal(of: page) == nil)
        #expect(ServiceSession.refusal(of: .thumbnails(.init(path: "/a.jpg", box: PixelSize(width: 256, height: 256), types: [.thumbnail],
                                                             contentType: nil, wantsFacts: false))) == nil)
    }

    /// The message and payload of one encoded frame.
    private func decode(_ frame: WorkerFrame) throws -> (WorkerFrame, [UInt8])? {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        try FrameCodec.write(frame, to: fds[1])
        close(fds[1])
        return try FrameCodec.read(from: fds[0]).map { ($0, $0.payload) }
    }
}
