import Testing
import ThumbnailKit
@testable import Providers

@Suite struct JPEGMetadataTests {
    /// A JPEG header with an EXIF APP1 (big-endian TIFF): IFD0 with Orientation, IFD1 pointing at `thumbnail`.
    private func jpeg(orientation: Int, thumbnail: [UInt8], littleEndian: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xff), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xff)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8(v >> 24)] : [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
        var tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        // IFD0 at 8: one entry (Orientation SHORT), next IFD at 26.
        tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0] + u32(26)
        // IFD1 at 26: two entries, next 0; thumbnail data at 26 + 2 + 24 + 4 = 56.
        tiff += u16(2) + u16(0x0201) + u16(4) + u32(1) + u32(56) + u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count) + u32(0)
        tiff += thumbnail
        let app1 = Array("Exif\0\0".utf8) + tiff
        let length = app1.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xff)] + app1 + [0xFF, 0xDA, 0, 2]
    }

    @Test func findsOrientationAndTheIFD1Thumbnail() throws {
        let bytes = jpeg(orientation: 6, thumbnail: [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9])
        let metadata = try #require(JPEGMetadata.parse(header: bytes, fileSize: bytes.count))
        #expect(metadata.orientation == 6)
        let range = try #require(metadata.exifThumbnail)
        #expect(Array(bytes[range]) == [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9])
    }

    @Test func readsLittleEndianTIFFToo() throws {
        let bytes = jpeg(orientation: 3, thumbnail: [9, 9, 9], littleEndian: true)
        let metadata = try #require(JPEGMetadata.parse(header: bytes, fileSize: bytes.count))
        #expect(metadata.orientation == 3)
        #expect(metadata.exifThumbnail.map { Array(bytes[$0]) } == [9, 9, 9])
    }

    @Test func aThumbnailPointingPastTheEndIsIgnored() throws {
        var bytes = jpeg(orientation: 1, thumbnail: [1, 2, 3, 4])
        bytes.removeLast(8)  // cut into the thumbnail
        let metadata = try #require(JPEGMetadata.parse(header: bytes, fileSize: bytes.count))
        #expect(metadata.exifThumbnail == nil)
    }

    @Test func readsTheStoredSizeFromTheFrameHeader() throws {
        // SOF0 after the EXIF segment: precision 8, height 3000, width 4000, one component.
        var bytes = jpeg(orientation: 6, thumbnail: [1, 2, 3])
        bytes.removeLast(4)
        bytes += [0xFF, 0xC4, 0, 3, 0] + [0xFF, 0xC0, 0, 11, 8, 0x0B, 0xB8, 0x0F, 0xA0, 1, 1, 0x11, 0] + [0xFF, 0xDA, 0, 2]
        let metadata = try #require(JPEGMetadata.parse(header: bytes, fileSize: bytes.count))
        #expect(metadata.storedSize == PixelSize(width: 4000, height: 3000))
        #expect(metadata.orientation == 6)
    }

    @Test func notAJPEGGivesNothing() {
        #expect(JPEGMetadata.parse(header: [0x89, 0x50, 0x4E, 0x47], fileSize: 4) == nil)
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var bytes = jpeg(orientation: 6, thumbnail: [1, 2, 3])
            for _ in 0..<4 { bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = JPEGMetadata.parse(header: bytes, fileSize: bytes.count)
        }
    }
}
