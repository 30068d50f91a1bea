import Testing
import ThumbnailKit
@testable import TerminalGraphics

/// The drivers' bytes for a four-colour picture (red, green / blue, yellow quadrants).
@Suite struct DriverTests {
    private let cell = CellSize(width: 10, height: 20)

    private var quadrants: PixelImage {
        var image = PixelImage(width: 200, height: 200, filledWith: RGBA(255, 0, 0))
        for y in 0..<200 {
            for x in 0..<200 where x >= 100 || y >= 100 {
                let colour: [UInt8] = x >= 100 && y < 100 ? [0, 200, 0, 255] : x < 100 ? [0, 0, 255, 255] : [255, 220, 0, 255]
                let index = (y * 200 + x) * 4
                image.pixels.replaceSubrange(index..<(index + 4), with: colour)
            }
        }
        return image
    }

    /// The SGR parameter lists used in `bytes`.
    private func colours(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\u{1B}").compactMap { part in
            part.hasPrefix("[0;") ? String(part.dropFirst(3).prefix { $0 != "m" }) : nil
        }
    }

    @Test func blockArtCarriesThePicturesColoursAtEveryDepth() {
        let picture = SymbolsDriver(cell: cell, colors: SymbolsDriver.truecolor).render(quadrants, columns: 20, rows: 10, imageID: 0)
        let truecolor = Set(colours(picture.lines.flatMap { $0 }))
        #expect(truecolor.contains { $0.contains("2;255;0;0") } && truecolor.contains { $0.contains("2;0;0;255") }, "\(truecolor)")
        // 256 colours: the palette indices of red (196) and blue (21), never the packed RGB.
        let indexed = Set(colours(SymbolsDriver(cell: cell, colors: 256).render(quadrants, columns: 20, rows: 10, imageID: 0).lines.flatMap { $0 }))
        #expect(indexed.contains { $0.contains("5;196") } && indexed.contains { $0.contains("5;21") }, "\(indexed)")
        #expect(!indexed.contains { $0.contains("5;16711680") })
        for depth in [16, 8] {
            let basic = Set(colours(SymbolsDriver(cell: cell, colors: depth).render(quadrants, columns: 20, rows: 10, imageID: 0).lines.flatMap { $0 }))
            #expect(basic.count >= 3 && !basic.contains { $0.contains(";5;") || $0.contains(";2;") }, "\(depth): \(basic)")
        }
    }

    @Test func blockArtIsPlacedRowByRowAndPutsTheCursorBack() {
        let driver = SymbolsDriver(cell: cell, colors: 256)
        let picture = driver.render(quadrants, columns: 20, rows: 10, imageID: 0)
        let shown = driver.show(picture, row: 3, column: 40)
        let text = String(decoding: shown.bytes, as: UTF8.self)
        #expect(shown.cells == CellRect(row: 3, column: 40, rows: picture.rows, columns: picture.columns))
        #expect(text.hasPrefix("\u{1B}7\u{1B}[4;41H") && text.hasSuffix("\u{1B}[0m\u{1B}8"))
        #expect(text.contains("\u{1B}[\(3 + picture.rows);41H"))
    }

    @Test func kittySendsAPNGOnceAndPlacesByID() {
        let driver = KittyDriver(cell: cell)
        let picture = driver.render(quadrants, columns: 20, rows: 10, imageID: 7)
        let transmission = String(decoding: driver.transmit(picture), as: UTF8.self)
        #expect(transmission.hasPrefix("\u{1B}_Ga=t,f=100,t=d,i=7,q=2,m=0;iVBORw0KGgo"), "PNG, base64, one chunk")
        let shown = String(decoding: driver.show(picture, row: 0, column: 0).bytes, as: UTF8.self)
        #expect(shown.contains("a=p,i=7,p=1,") && !shown.contains("a=t"))
        #expect(String(decoding: driver.erase(picture, at: CellRect(row: 0, column: 0, rows: 1, columns: 1)), as: UTF8.self) == "\u{1B}_Ga=d,d=i,i=7,p=1,q=2\u{1B}\\")
        #expect(driver.eraseAll(freeing: false) == Array("\u{1B}_Ga=d,d=a,q=2\u{1B}\\".utf8), "the whole delete command, terminator included")
    }

    @Test func kittyChunksLargePicturesAt4096Bytes() {
        var noise = PixelImage(width: 300, height: 300, filledWith: RGBA(0, 0, 0))
        var seed: UInt32 = 1
        for index in noise.pixels.indices where index % 4 != 3 {
            seed = seed &* 1_103_515_245 &+ 12345
            noise.pixels[index] = UInt8(truncatingIfNeeded: seed >> 16)
        }
        let picture = KittyDriver(cell: cell).render(noise, columns: 30, rows: 15, imageID: 9)
        let chunks = String(decoding: picture.transmission, as: UTF8.self).split(separator: "\u{1B}\\").map { $0.split(separator: ";").last.map(\.count) ?? 0 }
        #expect(chunks.count > 2 && chunks.dropLast().allSatisfy { $0 == 4096 }, "\(chunks)")
    }

    @Test func placeholdersNameRowColumnAndImage() {
        let driver = KittyPlaceholderDriver(cell: cell, throughTmux: true)
        let id = KittyDriver.imageID(serial: 300)  // low byte 46, high byte 1
        let picture = driver.render(quadrants, columns: 4, rows: 2, imageID: id)
        let first = Array(String(decoding: picture.lines[1], as: UTF8.self).unicodeScalars)
        #expect(String(String.UnicodeScalarView(first.prefix(10))) == "\u{1B}[38;5;46m")
        // Cell (row 1, column 0): placeholder, row 1, column 0, high byte 1.
        #expect(first[10...13].map(\.value) == [0x10EEEE, KittyDiacritics.table[1], KittyDiacritics.table[0], KittyDiacritics.table[1]])
        #expect(picture.transmission.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t".utf8)), "sent through tmux's passthrough")
        #expect(String(decoding: picture.transmission, as: UTF8.self).contains("a=p,U=1,i=\(id),c=\(picture.columns),r=\(picture.rows)"))
    }

    @Test func sixelInsideTmuxIsPlacedWithThePanesOffset() {
        let driver = SixelDriver(cell: cell, tmux: TmuxPane(top: 2, left: 61))
        let picture = driver.render(quadrants, columns: 10, rows: 5, imageID: 0)
        let bytes = driver.show(picture, row: 1, column: 3).bytes
        #expect(bytes.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}7\u{1B}\u{1B}[4;65H\u{1B}\u{1B}P".utf8)))
    }

    @Test func sixelStaysWithinTheTerminalsLimit() {
        // xterm's default: a 1040x522 px Quick Look picture was dropped whole, leaving blank cells.
        let driver = SixelDriver(cell: CellSize(width: 8, height: 16), limit: PixelSize(width: 1000, height: 1000))
        let area = driver.cellsWithinLimit(columns: 130, rows: 70)
        #expect(area.columns == 125 && area.rows == 62, "\(area)")
        let picture = driver.render(quadrants, columns: 130, rows: 70, imageID: 0)
        #expect(picture.columns <= 125 && picture.rows <= 62)
        // Bands of six: 13 px rows, 1000 px: 76 rows are 988 px, 990 in bands; 77 would be 1001.
        #expect(SixelDriver(cell: CellSize(width: 6, height: 13), limit: PixelSize(width: 1000, height: 1000))
            .cellsWithinLimit(columns: 10, rows: 100).rows == 76)
        let unlimited = SixelDriver(cell: cell).cellsWithinLimit(columns: 300, rows: 200)
        #expect(unlimited.columns == 300 && unlimited.rows == 200, "no limit known, none applied")
    }

    @Test func iTermGetsOnePNGSizedToItsCells() {
        let driver = ITermDriver(cell: cell)
        let picture = driver.render(quadrants, columns: 20, rows: 10, imageID: 0)
        let text = String(decoding: driver.show(picture, row: 2, column: 5).bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}7\u{1B}[3;6H\u{1B}]1337;File=inline=1;size="), "\(text.prefix(60))")
        #expect(text.contains(";preserveAspectRatio=1:iVBORw0KGgo") && text.hasSuffix("\u{07}\u{1B}8"))
        #expect(picture.columns <= 20 && picture.rows <= 10)
    }

    @Test func base64MatchesTheStandard() {
        #expect(String(decoding: Base64.encode(Array("Man".utf8)), as: UTF8.self) == "TWFu")
        #expect(String(decoding: Base64.encode(Array("Ma".utf8)), as: UTF8.self) == "TWE=")
        #expect(String(decoding: Base64.encode(Array("M".utf8)), as: UTF8.self) == "TQ==")
    }
}

/// Konsole keeps a sixel over the text as it keeps kitty's pictures: only kitty's delete takes it
/// down (issue 23: inside tmux, the list's photo stayed behind the grid after `v`).
@Suite struct SixelOverTextTests {
    private let cell = CellSize(width: 10, height: 20)

    @Test func konsoleInsideTmuxGetsSixelThatIsDeletedByKittysCommand() throws {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/x,1,0", "TMUX_PANE": "%1"]
        var facts = TerminalFacts(environment: env, deviceAttributes: [62, 4],
                                  tmux: TmuxFacts(version: [3, 3], clientTerm: "xterm-256color", clientTermType: "Konsole"))
        facts.answersKittyGraphics = true
        facts.tmux?.pane = TmuxPane(top: 1, left: 40)
        #expect(GraphicsChoice.mode(requested: nil, facts: facts) == .sixel)
        let driver = try #require(GraphicsChoice.driver(.sixel, facts: facts, cell: cell) as? SixelDriver)
        #expect(driver.keepsPicturesOverText)
        let picture = TerminalPicture(columns: 4, rows: 2, body: [0x41])
        let erase = driver.erase(picture, at: CellRect(row: 2, column: 3, rows: 2, columns: 4))
        // Kitty's delete at the outer terminal's cell (1-based: the pane's offset added), then the
        // picture's cells erased there, all through tmux (every ESC doubled).
        let expected = "\u{1B}_Ga=d,d=p,x=44,y=4,q=2\u{1B}\\" + "\u{1B}7\u{1B}[0m" + "\u{1B}[4;44H\u{1B}[4X\u{1B}[5;44H\u{1B}[4X" + "\u{1B}8"
        #expect(erase == TmuxPassthrough.wrap(Array(expected.utf8)))
        #expect(!driver.eraseAll(freeing: false).isEmpty)
    }

    @Test func insideTmuxASixelsCellsAreErasedOnTheOuterTerminal() {
        // tmux sends on only cells that change in its grid: a repaint of blank cells never
        // reaches the terminal (foot kept the grid's top row above the help).
        let driver = SixelDriver(cell: cell, tmux: TmuxPane(top: 0, left: 10))
        let erase = driver.erase(TerminalPicture(columns: 3, rows: 1, body: [0x41]), at: CellRect(row: 5, column: 2, rows: 1, columns: 3))
        #expect(erase == TmuxPassthrough.wrap(Array("\u{1B}7\u{1B}[0m\u{1B}[6;13H\u{1B}[3X\u{1B}8".utf8)))
        #expect(driver.eraseAll(freeing: false) == [], "the screen's clear reaches the terminal")
    }

    @Test func xtermsSixelIsTakenDownByRepaintingItsCells() {
        let facts = TerminalFacts(environment: ["TERM": "xterm"], deviceAttributes: [63, 4], terminalVersion: "XTerm(379)")
        let driver = GraphicsChoice.driver(.sixel, facts: facts, cell: cell)
        let picture = TerminalPicture(columns: 4, rows: 2, body: [0x41])
        #expect(driver?.erase(picture, at: CellRect(row: 2, column: 3, rows: 2, columns: 4)) == [])
        #expect(driver?.eraseAll(freeing: true) == [])
    }
}
