import SystemKit
import Testing
import ThumbnailKit
@testable import Providers

@Suite struct ContentSnifferTests {
    @Test func dngIsNotATIFF() {
        #expect(ContentSniffer.refine(sniffed: ContentType("image/tiff"), byName: ContentType("image/x-adobe-dng")) == ContentType("image/x-adobe-dng"))
    }

    @Test func zipContainersAreNamedByExtension() {
        #expect(ContentSniffer.refine(sniffed: ContentType("application/zip"), byName: ContentType("application/vnd.comicbook+zip")).identifier == "application/vnd.comicbook+zip")
    }

    @Test func bytesWinOverAMisleadingName() {
        #expect(ContentSniffer.refine(sniffed: ContentType("image/jpeg"), byName: ContentType("image/png")) == ContentType("image/jpeg"))
        #expect(ContentSniffer.refine(sniffed: ContentType("text/plain"), byName: ContentType("application/pdf")) == ContentType("text/plain"))
    }

    @Test func textSubtypesComeFromTheName() {
        #expect(ContentSniffer.refine(sniffed: ContentType("text/plain"), byName: ContentType("text/x-swift")) == ContentType("text/x-swift"))
    }

    @Test func sniffsRealBytes() throws {
        let path = "/tmp/qlbrowse-sniff-\(UInt32.random(in: 0...UInt32.max)).txt"
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]
        let file = try #require(fopen(path, "wb"))
        fwrite(png, 1, png.count, file)
        fclose(file)
        defer { remove(path) }
        #expect(ContentSniffer().contentType(ofFile: path) == ContentType("image/png"))
    }
}

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SignatureFastPathTests {
    @Test func signaturesMatchOnlyTheirFormat() {
        #expect(ContentSniffer.matches([0xFF, 0xD8, 0xFF, 0xE0], ContentSniffer.signatures["image/jpeg"]!))
        #expect(!ContentSniffer.matches([0x89, 0x50, 0x4E, 0x47], ContentSniffer.signatures["image/jpeg"]!))
        #expect(ContentSniffer.matches(Array("RIFF\u{1}\u{2}\u{3}\u{4}WEBPVP8 ".utf8), ContentSniffer.signatures["image/webp"]!))
        #expect(!ContentSniffer.matches(Array("RIFF\u{1}\u{2}\u{3}\u{4}WAVEfmt ".utf8), ContentSniffer.signatures["image/webp"]!))
        #expect(!ContentSniffer.matches([0xFF], ContentSniffer.signatures["image/jpeg"]!))
    }
}
