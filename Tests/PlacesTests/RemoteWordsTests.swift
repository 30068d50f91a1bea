import FileSystemKit
@testable import Places
import SystemKit
import Testing
import ThumbnailKit

/// What crosses besides requests: ssh's refusals put in words, preview pictures as PNG and back,
/// a remote batch's events as the local batch has them, and a version mismatch that says
/// which side is older.
@Suite struct RemoteWordsTests {
    @Test func aChangedHostKeyNamesTheHostAndTheKnownHostsLine() throws {
        let ssh = """
            @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
            @    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
            @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
            IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
            Add correct host key in /home/ann/.ssh/known_hosts to get rid of this message.
            Offending ED25519 key in /home/ann/.ssh/known_hosts:12
            Host key for nas has changed and you have requested strict checking.
            Host key verification failed.

            """
        let words = try #require(SSHDiagnosis.explain(ssh, host: "nas"))
        #expect(words.contains("the host key of nas has changed"))
        #expect(words.contains("/home/ann/.ssh/known_hosts:12"))
        #expect(words.contains("ssh-keygen -R nas") && words.contains("nothing was accepted"))
        let unknown = try #require(SSHDiagnosis.explain("No ED25519 host key is known for nas.\nHost key verification failed.\n", host: "nas"))
        #expect(unknown.contains("could not verify the host key of nas"))
        #expect(SSHDiagnosis.explain("ssh: connect to host nas port 22: Connection refused\n", host: "nas") == nil)
    }

    @Test func previewPicturesCrossAsPNGAndComeBackWhole() throws {
        var pixels = [UInt8](repeating: 0, count: 40 * 30 * 4)
        for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index * 7) }
        let answer = WorkerAnswer.page(.init(size: PixelSize(width: 40, height: 30), index: 0, pageCount: 1))
        let (payload, png) = RemotePreviewPicture.pack(answer, pixels)
        #expect(png && payload.count < pixels.count && payload.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(RemotePreviewPicture.unpack(answer, payload, png: true) == pixels)
        // A picture of another size than declared is refused, not drawn.
        let other = WorkerAnswer.page(.init(size: PixelSize(width: 30, height: 40), index: 0, pageCount: 1))
        #expect(RemotePreviewPicture.unpack(other, payload, png: true) == nil)
        // An answer without a picture goes as it is.
        let facts = WorkerAnswer.mediaFacts(MediaFacts(duration: 3, hasVideo: false))
        #expect(RemotePreviewPicture.pack(facts, [1, 2]) == ([1, 2], false))
    }

    @Test func aRemoteBatchIsToldAsTheLocalOne() {
        let events = RemoteBatchEvent.events([
            .unlisted(folder: "/a", reason: "gone"), .unlisted(folder: "/b", reason: "denied"), .found(total: 4),
            .generated(path: "/c/1.jpg", source: "vips", width: 256, height: 170), .cached(path: "/c/2.jpg"),
            .failed(path: "/c/3.jpg", code: .corrupt, reason: "bad"), .skipped(path: "/c/4.jpg", reason: "too small"),
        ], host: "nas")
        #expect(events.count == 6)
        guard case .unlisted(let folders) = events[0] else { Issue.record("\(events)"); return }
        #expect(folders.map(\.folder) == ["/a", "/b"])
        guard case .found(4) = events[1], case .file("/c/1.jpg", .generated(let picture)) = events[2],
              case .file("/c/2.jpg", .alreadyCached) = events[3], case .file(_, .failed(let error)) = events[4],
              case .file(_, .skipped("too small")) = events[5] else { Issue.record("\(events)"); return }
        #expect(picture.source == "vips on nas" && error.code == .corrupt)
    }

    @Test func aMismatchSaysWhichSideIsOlderAndWhatToDo() {
        let older = RemotePlace.mismatch(RemoteHello(version: 1, software: "qlbrowse 0.3"), mine: 2, host: "nas")
        #expect(older.contains("the remote qlbrowse speaks version 1, this one 2") && older.contains("is older"))
        #expect(older.contains("install this version of qlbrowse on nas") && older.contains("qlbrowse 0.3"))
        let newer = RemotePlace.mismatch(RemoteHello(version: 3, software: "qlbrowse 0.9"), mine: 2, host: "nas")
        #expect(newer.contains("is newer") && newer.contains("update qlbrowse here"))
    }

    @Test func aPhotosThumbnailCrossesAsJPEGAndAnIconOrTransparencyAsPNG() throws {
        var pixels = [UInt8](repeating: 255, count: 64 * 48 * 4)
        // A photo's grain: a gradient with noise (a PNG of it is large, as a photo's is).
        var seed: UInt32 = 7
        for index in stride(from: 0, to: pixels.count, by: 4) {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = Int(seed >> 28)
            pixels[index] = UInt8(index / 4 % 64 * 3 + noise)
            pixels[index + 1] = UInt8(index / 256 * 4 + noise)
            pixels[index + 2] = UInt8(90 + noise)
        }
        let photo = Representation(type: .thumbnail, image: PixelImage(width: 64, height: 48, pixels: pixels), source: "vips",
                                   contentType: ContentType("image/jpeg"))
        let (payload, jpeg) = RemotePreviewPicture.packThumbnail(photo)
        #expect(jpeg && payload.starts(with: [0xFF, 0xD8]))
        #expect(payload.count < PNGEncoder.encode(photo.image).count, "smaller than the PNG")
        let back = try #require(RemotePreviewPicture.unpackThumbnail(payload, jpeg: true))
        #expect(back.size == photo.image.size)
        let error = zip(back.pixels, pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +) / pixels.count
        #expect(error < 8, "close to the original: \(error) on average")
        // With transparency, or an icon: PNG, exact.
        var clear = pixels
        clear[3] = 0
        let transparent = Representation(type: .thumbnail, image: PixelImage(width: 64, height: 48, pixels: clear), source: "vips",
                                         contentType: ContentType("image/png"))
        #expect(RemotePreviewPicture.packThumbnail(transparent).jpeg == false)
        let icon = Representation(type: .icon, image: photo.image, source: "icon", contentType: ContentType("image/jpeg"))
        let (iconPayload, iconJPEG) = RemotePreviewPicture.packThumbnail(icon)
        #expect(!iconJPEG && RemotePreviewPicture.unpackThumbnail(iconPayload, jpeg: false)?.pixels == pixels)
        // Damaged bytes are refused, never an exit.
        #expect(RemotePreviewPicture.unpackThumbnail(Array(payload.prefix(40)), jpeg: true) == nil)
        #expect(RemotePreviewPicture.unpackThumbnail([1, 2, 3], jpeg: true) == nil)
    }
}
