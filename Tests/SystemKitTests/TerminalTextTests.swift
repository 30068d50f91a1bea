import Testing
@testable import SystemKit

@Suite struct TerminalTextTests {
    @Test func escapeSequencesInNamesAreShownNotExecuted() {
        #expect(TerminalText.escaped("\u{1B}]0;pwned\u{07}\u{1B}[2J.txt") == "\\e]0;pwned\\a\\e[2J.txt")
    }

    @Test func c1ControlsAndBidiOverridesAreEscaped() {
        #expect(TerminalText.escaped("a\u{9B}b") == "a\\x9Bb")
        #expect(TerminalText.escaped("evil\u{202E}gpj.exe") == "evil\\u{202E}gpj.exe")
    }

    @Test func ordinaryUnicodeIsKept() {
        #expect(TerminalText.escaped("Ünïcödé 写真 🎞.jpg") == "Ünïcödé 写真 🎞.jpg")
    }

    @Test func invalidUTF8BytesBecomeHexEscapes() {
        #expect(TerminalText.escaped(bytes: [0x61, 0xFF, 0x62, 0xC3]) == "a\\xFFb\\xC3")
        #expect(TerminalText.escaped(bytes: Array("é".utf8)) == "é")
    }
}
