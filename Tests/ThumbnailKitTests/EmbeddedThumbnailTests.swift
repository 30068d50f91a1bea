import Foundation
import Synchronization
import SystemKit
import Testing
@testable import ThumbnailKit

/// A JPEG's own preview answered in the asking process (`ThumbnailRequest.embeddedSuffices`, for
/// `qlbrowse dbus`): stored in the cache as the freedesktop spec wants it (turned upright, fitted
/// to the flavor) without a worker being asked.
@Suite struct EmbeddedThumbnailTests {
    /// Workers that are not there: each request is written down and fails.
    final class AbsentWorkers: WorkerBackend {
        let asked = Mutex(0)
        func submit(_ request: WorkerRequest) -> AsyncThrowingStream<WorkerEvent, Error> {
            asked.withLock { $0 += 1 }
            return AsyncThrowingStream { $0.finish(throwing: ThumbnailError(.crashed, "no worker in this test")) }
        }
        func shutdown(waitSeconds: Double) async {}
    }

    /// A JPEG of `size` in blue whose EXIF (big-endian TIFF) has `orientation` in IFD0 and, in
    /// IFD1, a green JPEG of `thumbnailSize` with a red top quarter (where it lands tells the turn).
    private func photo(_ size: PixelSize, thumbnailSize: PixelSize, orientation: Int = 1) -> [UInt8] {
        let main = JPEGEncoder.encode(PixelImage(width: size.width, height: size.height, filledWith: RGBA(20, 40, 220)), quality: 90)
        var small = PixelImage(width: thumbnailSize.width, height: thumbnailSize.height, filledWith: RGBA(20, 220, 20))
        for index in 0..<(thumbnailSize.width * thumbnailSize.height / 4) { small.pixels.replaceSubrange(index * 4..<index * 4 + 3, with: [230, 20, 20]) }
        let thumbnail = JPEGEncoder.encode(small, quality: 95)
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
        // IFD0 at 8 (Orientation), IFD1 at 26 pointing at the thumbnail, stored at 56.
        var tiff: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(8)
        tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0] + u32(26)
        tiff += u16(2) + u16(0x0201) + u16(4) + u32(1) + u32(56) + u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count) + u32(0)
        tiff += thumbnail
        let app1 = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1] + u16(app1.count + 2) + app1 + main.dropFirst(2)
    }

    private func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("qlbrowse-embedded-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> [UInt8] {
        let at = (y * image.width + x) * 4
        return Array(image.pixels[at..<at + 3])
    }

    /// Makes the normal-flavor thumbnail of `bytes` the way `qlbrowse dbus` asks; returns what the
    /// generator answered, the stored PNG decoded, and how many times a worker was asked.
    private func make(_ bytes: [UInt8], embeddedSuffices: Bool = true) async throws -> (Representation?, PixelImage?, Int) {
        let root = folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/photo.jpg"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let workers = AbsentWorkers()
        let cache = ThumbnailCache(root: root + "/cache", readsShared: false)
        var request = ThumbnailRequest(path: path, size: 128, types: [.thumbnail])
        request.wantsFacts = false
        request.embeddedSuffices = embeddedSuffices
        let made = try? await ThumbnailGenerator(workers: workers, cache: cache).bestRepresentation(for: request)
        let stored = FileManager.default.contents(atPath: cache.path(forFile: path, flavor: .normal)).flatMap { PNGDecoder.decode(Array($0)) }
        return (made, stored, workers.asked.withLock { $0 })
    }

    @Test func anEXIFThumbnailFillingTheFlavorIsStoredWithoutAWorker() async throws {
        let (made, stored, asked) = try await make(photo(PixelSize(width: 1600, height: 1200), thumbnailSize: PixelSize(width: 160, height: 120)))
        #expect(asked == 0)
        #expect(made?.source == "exif")
        let image = try #require(stored)
        #expect(image.size == PixelSize(width: 128, height: 96))
        #expect(pixel(image, 64, 5)[0] > 180 && pixel(image, 64, 90)[1] > 180)
    }

    @Test func theStoredThumbnailIsTurnedUpright() async throws {
        // Orientation 6: the stored picture is turned 90° clockwise for display; its top (red) lands on the right.
        let (_, stored, asked) = try await make(photo(PixelSize(width: 1600, height: 1200), thumbnailSize: PixelSize(width: 160, height: 120), orientation: 6))
        #expect(asked == 0)
        let image = try #require(stored)
        #expect(image.size == PixelSize(width: 96, height: 128))
        #expect(pixel(image, 92, 64)[0] > 180 && pixel(image, 5, 64)[1] > 180)
    }

    @Test func aPreviewTooSmallOrOfAnotherShapeGoesToTheWorker() async throws {
        // 80x60 would be enlarged for a 128 box; a 4:3 preview of a 16:9 photo has bars.
        for bytes in [photo(PixelSize(width: 1600, height: 1200), thumbnailSize: PixelSize(width: 80, height: 60)),
                      photo(PixelSize(width: 1920, height: 1080), thumbnailSize: PixelSize(width: 160, height: 120))] {
            let (made, stored, asked) = try await make(bytes)
            #expect(asked == 1 && made == nil && stored == nil)
        }
        // And without the request's leave, the photo itself is decoded (by a worker).
        let (_, _, asked) = try await make(photo(PixelSize(width: 1600, height: 1200), thumbnailSize: PixelSize(width: 160, height: 120)), embeddedSuffices: false)
        #expect(asked == 1)
    }
}
