import Testing
@testable import ThumbnailKit

@Suite struct FileFactTests {
    @Test func durationsReadLikeAPlayerShowsThem() {
        #expect(FileFact.duration(5) == "0:05")
        #expect(FileFact.duration(65.4) == "1:05")
        #expect(FileFact.duration(3723) == "1:02:03")
        #expect(FileFact.duration(.nan) == "?")
    }

    /// The cache keeps facts in a Latin-1 tEXt chunk: names outside it, `=` and line breaks survive.
    @Test func factsSurviveTheCacheTextUnchanged() {
        let facts = [FileFact("camera", "Nokia 8.3 5G"), FileFact("title", "Ålesund = 東京\nline 2 100%"), FileFact("dimensions", "4000×3000")]
        let text = FileFact.cacheText(facts)
        #expect(text.unicodeScalars.allSatisfy { $0.value < 0x7F })
        #expect(FileFact.parseCacheText(text) == facts)
        #expect(FileFact.parseCacheText("") == [])
        #expect(FileFact.parseCacheText("camera=bad%G1\nok=yes") == [FileFact("ok", "yes")])
    }
}
