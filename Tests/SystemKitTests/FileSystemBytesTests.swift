import Testing
@testable import SystemKit

/// The one mapping between a name's bytes and the String that carries it is a bijection, and
/// what is drawn or handed to other programs shows the bytes, not the carrier.
@Suite struct FileSystemBytesTests {
    @Test func everyOneAndTwoByteNameComesBackAsItsBytes() {
        for first in 0...255 {
            #expect(FileSystemBytes.bytes(of: FileSystemBytes.string(from: [UInt8(first)])) == [UInt8(first)])
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                if FileSystemBytes.bytes(of: FileSystemBytes.string(from: bytes)) != bytes {
                    Issue.record("\(bytes) does not come back")
                    return
                }
            }
        }
    }

    @Test func aNameThatHoldsAReservedScalarComesBackToo() {
        for text in ["\u{EF80}", "a\u{EFFF}b", "\u{EEFF}\u{F000}", "é\u{EF80}\u{FFFD}"] {
            let bytes = Array(text.utf8)
            let carried = FileSystemBytes.string(from: bytes)
            #expect(FileSystemBytes.bytes(of: carried) == bytes)
            #expect(TerminalText.escaped(carried).contains("\\x") == text.unicodeScalars.contains { $0.value >= 0xEF80 && $0.value <= 0xEFFF })
        }
    }

    @Test func twinsStayApartAndValidNamesAreUntouched() {
        let raw = FileSystemBytes.string(from: [0x61, 0xFF])
        let repaired = FileSystemBytes.string(from: Array("a\u{FFFD}".utf8))
        #expect(raw != repaired && raw.fileSystemBytes == [0x61, 0xFF])
        #expect(FileSystemBytes.string(from: Array("café 日本.jpg".utf8)) == "café 日本.jpg")
        #expect(TerminalText.escaped(raw) == "a\\xFF")
        #expect(FileURI.from(absolutePath: "/" + raw) == "file:///a%FF")
        #expect(FileURI.path(from: "file:///a%FF").map(\.fileSystemBytes) == [0x2F, 0x61, 0xFF])
    }

    @Test func namesAreCutBetweenCharactersAndJSONCarriesSurrogates() {
        let long = FileSystemBytes.string(from: [UInt8](repeating: 0xFF, count: 300))
        #expect(FileSystemBytes.prefix(of: long, bytes: 200).fileSystemBytes.count == 200)
        #expect(FileSystemBytes.prefix(of: "日本語", bytes: 7) == "日本")
        #expect(FileSystemBytes.jsonForOtherPrograms("{\"file\":\"" + FileSystemBytes.string(from: [0x61, 0xE9]) + "\"}") == "{\"file\":\"a\\uDCE9\"}")
    }
}
