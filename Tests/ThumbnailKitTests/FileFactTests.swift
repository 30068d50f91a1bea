import Testing
@testable import ThumbnailKit

@Suite struct FileFactTests {
    @Test func durationsReadLikeAPlayerShowsThem() {
        #expect(FileFact.duration(5) == "0:05")
        #expect(FileFact.duration(65.4) == "1:05")
        #expect(FileFact.duration(3723) == "1:02:03")
        #expect(FileFact.duration(.nan) == "?")
    }
}
