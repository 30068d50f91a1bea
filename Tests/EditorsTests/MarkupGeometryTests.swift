@testable import Editors
import Testing
import ThumbnailKit

/// Where Markup lands in a PDF's user space, and how the annotation is written: pure arithmetic
/// checked against hand-worked values (a turned page's corner, Helvetica's widths, libjpeg's scale).
@Suite struct MarkupGeometryTests {
    /// A Letter page cropped to [36 72 576 756], as the page shows it under each rotation.
    @Test func aShownBoxLandsInUserSpaceUnderEveryRotationOfACroppedPage() {
        let box = Mark.Box(x: 100, y: 100, width: 200, height: 50)
        let crop = [36.0, 72, 576, 756]
        // Unturned: x from the crop's left, y down from its top.
        #expect(PDFPageFrame(box: crop, rotation: 0).userRect(box) == [136, 606, 336, 656])
        // A quarter turn clockwise: the shown top-left is the crop's bottom-left, shown x runs up.
        #expect(PDFPageFrame(box: crop, rotation: 90).userRect(box) == [136, 172, 186, 372])
        // Upside down: the shown top-left is the crop's bottom-right.
        #expect(PDFPageFrame(box: crop, rotation: 180).userRect(box) == [276, 172, 476, 222])
        #expect(PDFPageFrame(box: crop, rotation: 270).userRect(box) == [426, 456, 476, 656])
        // Inherited or negative rotations and boxes given corner-first still mean the same page.
        #expect(PDFPageFrame(box: [576, 756, 36, 72], rotation: -270) == PDFPageFrame(box: crop, rotation: 90))
        #expect(PDFPageFrame(box: crop, rotation: 90).shownWidth == 684 && PDFPageFrame(box: crop, rotation: 90).shownHeight == 540)
    }

    /// The appearance's matrix turns form space back by the page's rotation: the shown
    /// top-left corner of the box, at form (0, height), goes to the rectangle's corner that the
    /// frame maps the shown top-left to.
    @Test func theAppearanceMatrixPutsTheShownTopLeftWhereTheFrameDoes() {
        let box = Mark.Box(x: 10, y: 20, width: 30, height: 40)
        for rotation in [0, 90, 180, 270] {
            let frame = PDFPageFrame(box: [0, 0, 612, 792], rotation: rotation)
            let m = frame.appearanceMatrix, rect = frame.userRect(box)
            // The BBox [0 0 30 40] through the matrix, then moved onto the rectangle (PDF 12.5.5).
            let corners = [(0.0, 0.0), (30.0, 0.0), (0.0, 40.0), (30.0, 40.0)].map { (m[0] * $0.0 + m[2] * $0.1, m[1] * $0.0 + m[3] * $0.1) }
            let minX = corners.map(\.0).min()!, minY = corners.map(\.1).min()!
            let topLeft = (m[0] * 0 + m[2] * 40 - minX + rect[0], m[1] * 0 + m[3] * 40 - minY + rect[1])
            let expected = frame.user(.init(x: box.x, y: box.y))
            #expect(topLeft.0 == expected.x && topLeft.1 == expected.y, "rotation \(rotation)")
        }
    }

    @Test func highlightQuadPointsGoTopLeftTopRightBottomLeftBottomRight() {
        let frame = PDFPageFrame(box: [0, 0, 612, 792], rotation: 0)
        #expect(frame.quadPoints(Mark.Box(x: 10, y: 20, width: 100, height: 12)) == [10, 772, 110, 772, 10, 760, 110, 760])
    }

    @Test func eachKindBecomesItsAnnotationWithItsAppearance() {
        let builder = PDFAnnotationBuilder(frame: PDFPageFrame(box: [0, 0, 612, 792], rotation: 0))
        let box = Mark.Box(x: 50, y: 50, width: 100, height: 40)
        let subtypes: [Mark.Kind: String] = [.rectangle: "/Square", .ellipse: "/Circle", .arrow: "/Line", .highlight: "/Highlight", .note: "/FreeText", .freehand: "/Ink"]
        for (kind, subtype) in subtypes {
            let mark = Mark(kind: kind, box: box, note: "n", points: kind == .freehand ? [.init(x: 50, y: 50), .init(x: 90, y: 70)] : [])
            let annotation = builder.annotation(mark)
            #expect(annotation.dictionary.contains("/Subtype \(subtype) "), "\(annotation.dictionary)")
            #expect(annotation.dictionary.contains("/Contents <FEFF006E>"))
            #expect(!annotation.appearance.content.isEmpty)
        }
        let arrow = builder.annotation(Mark(kind: .arrow, box: box))
        #expect(arrow.dictionary.contains("/L [50 742 150 702] /LE [/None /OpenArrow]"), "\(arrow.dictionary)")
        // The arrow's rectangle has room for the head: 12 points around the line's ends.
        #expect(arrow.dictionary.contains("/Rect [38 690 162 754]"), "\(arrow.dictionary)")
    }

    @Test func numbersAreShortAndNeverInExponentForm() {
        #expect(PDFNumber.text(12) == "12" && PDFNumber.text(0.5) == "0.5" && PDFNumber.text(-3.256) == "-3.26")
        #expect(PDFNumber.text(0.04) == "0.04" && PDFNumber.text(-0.001) == "0" && PDFNumber.text(1e-9) == "0")
        #expect(PDFNumber.textString("é€") == "<FEFF00E920AC>")
    }

    @Test func noteTextWrapsByHelveticaWidthsAndKeepsWinAnsiCharacters() {
        // "Hello" is 722 + 556 + 222 + 222 + 556 thousandths: 27.336 points at 12 points.
        #expect(abs(HelveticaText.advance(HelveticaText.encode("Hello"), size: 12) - 27.336) < 0.001)
        let lines = HelveticaText.lines("Hello Hello Hello", width: 60, size: 12)
        #expect(lines.map { String(decoding: $0, as: UTF8.self) } == ["Hello Hello", "Hello"])
        #expect(HelveticaText.encode("é€✓") == [0xE9, 0x80, UInt8(ascii: "?")])
        // A word wider than the line is broken inside; the text's own line breaks stay.
        #expect(HelveticaText.lines("WWWWWW", width: 30, size: 12).count == 3)
        #expect(HelveticaText.lines("a\nb", width: 100, size: 12).count == 2)
    }

    @Test func aJPEGsQualityIsReadFromItsLuminanceTable() {
        // libjpeg's quality 50 is the standard table itself, quality 75 is it scaled by 50%.
        let standard: [UInt8] = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
                                 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]
        func jpeg(_ table: [UInt8]) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 67, 0x00] + table + [0xFF, 0xDA, 0, 2] }
        #expect(JPEGQuality.estimate(header: jpeg(standard)) == 50)
        #expect(JPEGQuality.estimate(header: jpeg(standard.map { UInt8((Int($0) * 50 + 50) / 100) })) == 75)
        #expect(JPEGQuality.estimate(header: jpeg([UInt8](repeating: 1, count: 64))) == 99)
        #expect(JPEGQuality.estimate(header: [0x89, 0x50, 0x4E, 0x47]) == nil)
    }

    @Test func marksThatCannotBeDrawnSaySo() {
        let box = Mark.Box(x: 0, y: 0, width: 10, height: 10)
        #expect(Mark(kind: .rectangle, box: box).problem == nil)
        #expect(Mark(kind: .rectangle, box: Mark.Box(x: 0, y: 0, width: 0, height: 10)).problem != nil)
        #expect(Mark(kind: .note, box: box).problem?.contains("--note") == true)
        #expect(Mark(kind: .freehand, box: box, points: [.init(x: 1, y: 1)]).problem?.contains("two points") == true)
        #expect(Mark(kind: .rectangle, box: Mark.Box(x: .nan, y: 0, width: 1, height: 1)).problem != nil)
    }
}
