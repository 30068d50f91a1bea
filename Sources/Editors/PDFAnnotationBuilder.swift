import ThumbnailKit

/// A mark as a PDF annotation: its dictionary (in PDF syntax, user space) and its appearance
/// stream (/AP /N), drawn here so that every reader shows the mark the same way, including those
/// that draw only what an annotation's appearance says. Pure: `PDFAnnotator` puts it in the file.
struct PDFAnnotationBuilder {
    /// The annotation, ready for qpdf: the dictionary without /AP, and the appearance form.
    struct Annotation {
        var dictionary: String
        var appearance: Appearance
    }

    /// A form XObject: its dictionary's entries and its content stream.
    struct Appearance {
        var bbox: [Double]
        var matrix: [Double]
        var resources: String
        var content: String
    }

    let frame: PDFPageFrame

    /// The arrowhead's length and the stroke's width, in points.
    static let headLength = 10.0
    static let lineWidth = Mark.pageLineWidth

    func annotation(_ mark: Mark) -> Annotation {
        let area = Self.appearanceBox(of: mark)
        let colour = mark.colour.components
        let rgb = [colour.red, colour.green, colour.blue].map(PDFNumber.text).joined(separator: " ")
        var entries = ["/Type /Annot", "/Subtype /\(subtype(mark.kind))", "/Rect \(PDFNumber.array(frame.userRect(area)))", "/F 4"]
        if mark.kind != .note { entries.append("/C [\(rgb)]") }
        if mark.kind != .highlight {
            let width = mark.kind == .note ? 1 : Self.lineWidth
            entries.append("/BS << /Type /Border /W \(PDFNumber.text(width)) /S /S >>")
            entries.append("/Border [0 0 \(PDFNumber.text(width))]")
        }
        if let note = mark.note, !note.isEmpty { entries.append("/Contents \(PDFNumber.textString(note))") }
        switch mark.kind {
        case .arrow:
            let (start, end) = mark.arrowEnds
            let ends = [frame.user(start), frame.user(end)].flatMap { [$0.x, $0.y] }
            entries.append("/L \(PDFNumber.array(ends)) /LE [/None /OpenArrow]")
        case .highlight:
            entries.append("/QuadPoints \(PDFNumber.array(frame.quadPoints(mark.box)))")
        case .note:
            entries.append("/DA (/Helv \(PDFNumber.text(Self.fontSize(for: mark.box))) Tf \(rgb) rg) /Q 0")
        case .freehand:
            entries.append("/InkList [\(PDFNumber.array(mark.points.map(frame.user).flatMap { [$0.x, $0.y] }))]")
        case .rectangle, .ellipse:
            break
        }
        let appearance = Appearance(bbox: [0, 0, area.width, area.height], matrix: frame.appearanceMatrix,
                                    resources: resources(mark.kind), content: content(mark, in: area, rgb: rgb))
        return Annotation(dictionary: "<< " + entries.joined(separator: " ") + " >>", appearance: appearance)
    }

    /// Where the appearance is drawn, as shown: the box, or around the arrow or the stroke
    /// with room for the arrowhead and the line's width.
    static func appearanceBox(of mark: Mark) -> Mark.Box {
        let margin: Double
        let around: Mark.Box?
        switch mark.kind {
        case .arrow:
            let (start, end) = mark.arrowEnds
            around = .around([start, end])
            margin = headLength + lineWidth
        case .freehand:
            around = .around(mark.points)
            margin = lineWidth
        default:
            return mark.box
        }
        guard let box = around else { return mark.box }
        return Mark.Box(x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin)
    }

    private func subtype(_ kind: Mark.Kind) -> String {
        switch kind {
        case .rectangle: "Square"
        case .ellipse: "Circle"
        case .arrow: "Line"
        case .highlight: "Highlight"
        case .note: "FreeText"
        case .freehand: "Ink"
        }
    }

    private func resources(_ kind: Mark.Kind) -> String {
        switch kind {
        case .highlight: "<< /ExtGState << /GS0 << /Type /ExtGState /BM /Multiply >> >> >>"
        case .note: "<< /Font << /Helv << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >> >>"
        default: "<< >>"
        }
    }

    /// The drawing, in form space: y up, the origin at the appearance box's shown bottom-left.
    private func content(_ mark: Mark, in area: Mark.Box, rgb: String) -> String {
        func form(_ point: Mark.Point) -> String { "\(PDFNumber.text(point.x - area.x)) \(PDFNumber.text(area.maxY - point.y))" }
        let width = Self.lineWidth, half = Self.lineWidth / 2
        let (w, h) = (area.width, area.height)
        let stroke = "\(rgb) RG \(PDFNumber.text(width)) w 1 J 1 j"
        switch mark.kind {
        case .rectangle:
            return "q \(stroke) \(PDFNumber.list([half, half, max(0, w - width), max(0, h - width)])) re S Q"
        case .ellipse:
            return "q \(stroke) \(Self.ellipse(cx: w / 2, cy: h / 2, rx: max(0, w / 2 - half), ry: max(0, h / 2 - half))) S Q"
        case .highlight:
            return "q /GS0 gs \(rgb) rg 0 0 \(PDFNumber.text(w)) \(PDFNumber.text(h)) re f Q"
        case .arrow:
            let (start, end) = mark.arrowEnds
            let head = Self.arrowhead(from: start, to: end)
            return "q \(stroke) \(form(start)) m \(form(end)) l S \(form(head.0)) m \(form(end)) l \(form(head.1)) l S Q"
        case .freehand:
            let path = mark.points.enumerated().map { "\(form($0.element)) \($0.offset == 0 ? "m" : "l")" }
            return "q \(stroke) \(path.joined(separator: " ")) S Q"
        case .note:
            return noteContent(mark.note ?? "", width: w, height: h, rgb: rgb)
        }
    }

    /// A note: a thin frame and the text, wrapped to the box and clipped to it.
    private func noteContent(_ text: String, width w: Double, height h: Double, rgb: String) -> String {
        let size = Self.fontSize(for: Mark.Box(x: 0, y: 0, width: w, height: h)), padding = 3.0
        let lines = HelveticaText.lines(text, width: max(1, w - 2 * padding), size: size)
        var parts = ["q \(rgb) RG 1 w 0.5 0.5 \(PDFNumber.text(max(0, w - 1))) \(PDFNumber.text(max(0, h - 1))) re S",
                     "0 0 \(PDFNumber.text(w)) \(PDFNumber.text(h)) re W n",
                     "BT /Helv \(PDFNumber.text(size)) Tf \(rgb) rg \(PDFNumber.text(size * 1.2)) TL",
                     "\(PDFNumber.text(padding)) \(PDFNumber.text(h - padding - size * 0.8)) Td"]
        for (index, line) in lines.enumerated() {
            parts.append((index == 0 ? "" : "T* ") + "<" + line.map { Self.hex($0) }.joined() + "> Tj")
        }
        parts.append("ET Q")
        return parts.joined(separator: "\n")
    }

    /// 12 points, smaller in a box too low for one line of it.
    static func fontSize(for box: Mark.Box) -> Double {
        min(12, max(4, (box.height - 6) / 1.2))
    }

    /// The arrowhead's two back corners, 25 degrees either side of the line.
    static func arrowhead(from start: Mark.Point, to end: Mark.Point) -> (Mark.Point, Mark.Point) {
        let dx = end.x - start.x, dy = end.y - start.y
        let length = max(1e-9, (dx * dx + dy * dy).squareRoot())
        let (ux, uy) = (dx / length, dy / length)
        let (cosine, sine) = (0.9063, 0.4226)  // 25 degrees
        let back = headLength
        let left = Mark.Point(x: end.x - back * (ux * cosine - uy * sine), y: end.y - back * (uy * cosine + ux * sine))
        let right = Mark.Point(x: end.x - back * (ux * cosine + uy * sine), y: end.y - back * (uy * cosine - ux * sine))
        return (left, right)
    }

    /// An ellipse as four Bézier curves.
    static func ellipse(cx: Double, cy: Double, rx: Double, ry: Double) -> String {
        let k = 0.5523
        let n = PDFNumber.text
        return "\(n(cx + rx)) \(n(cy)) m "
            + "\(n(cx + rx)) \(n(cy + k * ry)) \(n(cx + k * rx)) \(n(cy + ry)) \(n(cx)) \(n(cy + ry)) c "
            + "\(n(cx - k * rx)) \(n(cy + ry)) \(n(cx - rx)) \(n(cy + k * ry)) \(n(cx - rx)) \(n(cy)) c "
            + "\(n(cx - rx)) \(n(cy - k * ry)) \(n(cx - k * rx)) \(n(cy - ry)) \(n(cx)) \(n(cy - ry)) c "
            + "\(n(cx + k * rx)) \(n(cy - ry)) \(n(cx + rx)) \(n(cy - k * ry)) \(n(cx + rx)) \(n(cy)) c"
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
