import Foundation
import Testing
@testable import BrowserCore
@testable import BrowserUI
import Places

/// Quick Look's text: read a window at a time, coloured by bat, laid out in rows.
@Suite struct TextPreviewWindowTests {
    private func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "qlbrowse-text-\(UUID().uuidString).txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func windowsComeFromAnywhereInTheFile() throws {
        let lines = (0..<5000).map { "line \($0)" }
        let path = try file(lines.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let window = TextFileWindow(path: path)
        let top = try window.lines(from: 0, count: 3)
        #expect(top.first == 0 && top.lines.map { String(decoding: $0, as: UTF8.self) } == ["line 0", "line 1", "line 2"] && top.total == nil,
                "the top needs no scan: the total is not known yet")
        let middle = try window.lines(from: 3000, count: 2)
        #expect(middle.lines.map { String(decoding: $0, as: UTF8.self) } == ["line 3000", "line 3001"])
        let end = try window.lines(from: QuickLookPosition.end, count: 4)
        #expect(end.first == 4996 && end.total == 5000 && end.lines.last.map { String(decoding: $0, as: UTF8.self) } == "line 4999")
        let back = try window.lines(from: 1023, count: 2)
        #expect(back.lines.map { String(decoding: $0, as: UTF8.self) } == ["line 1023", "line 1024"], "across a checkpoint")
    }

    @Test func aLastLineWithoutNewlineAndAnEndlessLineStillShow() throws {
        let path = try file("a\nb")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try TextFileWindow(path: path).lines(from: QuickLookPosition.end, count: 10)
        #expect(read.first == 0 && read.total == 2 && read.lines.count == 2)
        let endless = try file(String(repeating: "x", count: 100_000))
        defer { try? FileManager.default.removeItem(atPath: endless) }
        let long = try TextFileWindow(path: endless).lines(from: 0, count: 10)
        #expect(long.lines.count == 1 && long.lines[0].count == TextFileWindow.maxLineBytes, "cut, not read whole into a line")
        #expect(throws: TextFileWindow.Failure.self) { try TextFileWindow(path: "/nonexistent/qlbrowse").lines(from: 0, count: 1) }
    }

    @Test func colourCodesBecomeStylesAndNothingElseGetsThrough() {
        let line = StyledLine(highlighted: "\u{1B}[35mimport\u{1B}[0m os \u{1B}[38;5;196mred\u{1B}[38;2;0;0;255mblue\u{1B}]0;title\u{7}")
        #expect(line.text == "import os redblue]0;title", "only SGR is read: another sequence loses its ESC and shows as text")
        #expect(line.runs.first == StyledLine.Run(text: "import", style: Theme.Style(foreground: 5)))
        #expect(line.runs.first { $0.text == "red" }?.style.foreground == 196)
        #expect(line.runs.first { $0.text.hasPrefix("blue") }?.style.foreground == 21)
        #expect(StyledLine.apply("1;4", to: Theme.Style()).bold && StyledLine.apply("", to: Theme.Style(foreground: 3)) == Theme.Style())
    }

    @Test func longLinesWrapOrAreCutWithAMarker() {
        let line = StyledLine(runs: [.init(text: "abcd", style: Theme.Style(foreground: 1)), .init(text: "efgh", style: Theme.Style())])
        let wrapped = QuickLookTextView.layout(line, width: 3, wraps: true) { _ in 1 }
        #expect(wrapped.map { $0.runs.map(\.text).joined() } == ["abc", "def", "gh"])
        #expect(wrapped[1].runs.map(\.style.foreground) == [1, -1], "styles follow the text across rows")
        let cut = QuickLookTextView.layout(line, width: 5, wraps: false) { _ in 1 }
        #expect(cut.count == 1 && cut[0].isCut && cut[0].runs.map(\.text).joined() == "abcd")
        let wide = QuickLookTextView.layout(StyledLine(plain: "日本語"), width: 4, wraps: true) { $0 > 0x2E80 ? 2 : 1 }
        #expect(wide.map { $0.runs.map(\.text).joined() } == ["日本", "語"])
    }

    @Test func batColoursSourceCodeWhenInstalled() throws {
        guard Highlighter.program != nil else { return }
        // A hang guard of 60 s, not the browser's 2 s: bat's first start loads its syntaxes, and
        // CI's whole suite on two cores once kept it past 2 s.
        let styled = try #require(Highlighter.highlight(["import Foundation", "let x = 1 // one"], fileName: "a.swift", seconds: 60))
        #expect(styled.map(\.text) == ["import Foundation", "let x = 1 // one"])
        #expect(styled[0].runs.contains { $0.style.foreground >= 0 }, "the keyword is coloured")
        #expect(Highlighter.highlight(["just words"], fileName: "notes.unknownextension", seconds: 60)?.allSatisfy { $0.runs.allSatisfy { $0.style == Theme.Style() } } ?? true)
    }
}
