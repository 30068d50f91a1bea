import Testing
@testable import SystemKit

@Suite struct ContentTypeTableTests {
    @Test func extensionsMapToTypesRegardlessOfCase() {
        #expect(ContentTypeTable.type(forFileName: "/x/IMG_0001.JPG") == ContentType("image/jpeg"))
        #expect(ContentTypeTable.type(forFileName: "movie.mkv") == ContentType("video/x-matroska"))
        #expect(ContentTypeTable.type(forFileName: "Makefile") == nil)
        #expect(ContentTypeTable.type(forFileName: ".bashrc") == nil)
    }

    @Test func kindsRouteTheBuiltInProviders() {
        #expect(ContentType("image/x-adobe-dng").kind == .rawImage)
        #expect(ContentType("image/png").kind == .image)
        #expect(ContentType("application/json").kind == .text)
        #expect(ContentType("application/epub+zip").kind == .document)
        #expect(ContentType("application/vnd.oasis.opendocument.text").kind == .document)
        #expect(ContentType("application/zip").kind == .archive)
        #expect(ContentType("application/pdf").kind == .pdf)
        #expect(ContentType("audio/flac").kind == .audio)
        #expect(ContentType("inode/directory").kind == .folder)
        #expect(ContentType("application/x-whatever").kind == .unknown)
    }

    @Test func typesAreCaseInsensitive() {
        #expect(ContentType("Image/JPEG") == ContentType("image/jpeg"))
    }
}
