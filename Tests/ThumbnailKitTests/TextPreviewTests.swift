import Testing
@testable import ThumbnailKit

@Suite struct TextPreviewTests {
    @Test func escapesControlCharactersAndExpandsTabs() {
        let lines = TextPreview.lines(from: Array("a\tb\n\u{1B}]0;pwned\u{07}\u{1B}[2J\n".utf8), maxLines: 10, maxColumns: 80)
        #expect(lines == ["a   b", "\\e]0;pwned^G\\e[2J"])
    }

    @Test func latin1IsDecodedWhenNotUTF8() {
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8] + Array("me br".utf8) + [0xFB] + Array("l".utf8) + [0xE9, 0x0A]
        #expect(TextPreview.lines(from: bytes, maxLines: 1, maxColumns: 80) == ["café crème brûlé"])
    }

    @Test func crlfAndCRAreLineBreaks() {
        #expect(TextPreview.lines(from: Array("one\r\ntwo\rthree".utf8), maxLines: 5, maxColumns: 80) == ["one", "two", "three"])
    }

    @Test func linesAndColumnsAreBounded() {
        let text = String(repeating: String(repeating: "x", count: 200) + "\n", count: 100)
        let lines = TextPreview.lines(from: Array(text.utf8), maxLines: 40, maxColumns: 64)
        #expect(lines.count == 40)
        #expect(lines.allSatisfy { $0.count == 64 })
    }

    @Test func utf16WithBOMIsDecoded() {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("hi".utf16).flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        #expect(TextPreview.lines(from: bytes, maxLines: 1, maxColumns: 10) == ["hi"])
    }
}
