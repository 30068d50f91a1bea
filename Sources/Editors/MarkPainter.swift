import CCairo
import ThumbnailKit

/// Draws marks with cairo onto a transparent layer the picture's size, in the picture's
/// coordinates as shown (pixels from its top-left): the same shapes a PDF gets as annotations,
/// with lines as thick as a 2-point line on a page of the picture's size would look.
struct MarkPainter {
    let context: OpaquePointer
    /// The stroke's width in pixels.
    let lineWidth: Double

    init(context: OpaquePointer, pictureWidth: Int, pictureHeight: Int) {
        self.context = context
        lineWidth = max(2, (Double(min(pictureWidth, pictureHeight)) / 300).rounded())
    }

    func paint(_ mark: Mark) {
        let colour = mark.colour.components
        let box = mark.box, half = lineWidth / 2
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, 1)
        cairo_set_line_width(context, lineWidth)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        switch mark.kind {
        case .rectangle:
            cairo_set_line_join(context, CAIRO_LINE_JOIN_MITER)
            cairo_rectangle(context, box.x + half, box.y + half, max(0, box.width - lineWidth), max(0, box.height - lineWidth))
            cairo_stroke(context)
        case .ellipse:
            cairo_save(context)
            cairo_translate(context, box.x + box.width / 2, box.y + box.height / 2)
            cairo_scale(context, max(0.01, box.width / 2 - half), max(0.01, box.height / 2 - half))
            cairo_arc(context, 0, 0, 1, 0, 2 * Double.pi)
            cairo_restore(context)
            cairo_stroke(context)
        case .highlight:
            cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, 0.4)
            cairo_rectangle(context, box.x, box.y, box.width, box.height)
            cairo_fill(context)
        case .arrow:
            let (start, end) = mark.arrowEnds
            let head = arrowhead(from: start, to: end)
            cairo_move_to(context, start.x, start.y)
            cairo_line_to(context, end.x, end.y)
            cairo_move_to(context, head.0.x, head.0.y)
            cairo_line_to(context, end.x, end.y)
            cairo_line_to(context, head.1.x, head.1.y)
            cairo_stroke(context)
        case .freehand:
            for (index, point) in mark.points.enumerated() {
                if index == 0 { cairo_move_to(context, point.x, point.y) } else { cairo_line_to(context, point.x, point.y) }
            }
            cairo_stroke(context)
        case .note:
            note(mark.note ?? "", in: box)
        }
    }

    /// The arrowhead scaled to the line's width (the PDF's is 10 points for a 2-point line).
    private func arrowhead(from start: Mark.Point, to end: Mark.Point) -> (Mark.Point, Mark.Point) {
        let scale = lineWidth / Mark.pageLineWidth
        let (left, right) = PDFAnnotationBuilder.arrowhead(from: start, to: end)
        func grow(_ point: Mark.Point) -> Mark.Point { Mark.Point(x: end.x + (point.x - end.x) * scale, y: end.y + (point.y - end.y) * scale) }
        return (grow(left), grow(right))
    }

    /// A frame and the text inside it, wrapped between words, clipped to the box.
    private func note(_ text: String, in box: Mark.Box) {
        let frame = max(1, lineWidth / 2)
        cairo_set_line_width(context, frame)
        cairo_rectangle(context, box.x + frame / 2, box.y + frame / 2, max(0, box.width - frame), max(0, box.height - frame))
        cairo_stroke(context)
        cairo_rectangle(context, box.x, box.y, box.width, box.height)
        cairo_clip(context)
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        let size = min(max(6, box.height - 4 * frame), max(12, lineWidth * 7))
        cairo_set_font_size(context, size)
        let padding = frame + size * 0.25
        var baseline = box.y + padding + size * 0.8
        for line in wrapped(text, width: box.width - 2 * padding) {
            cairo_move_to(context, box.x + padding, baseline)
            cairo_show_text(context, line)
            baseline += size * 1.2
        }
    }

    /// Lines of words that fit `width` in the context's font (a longer word stands alone).
    private func wrapped(_ text: String, width: Double) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if line.isEmpty || advance(candidate) <= width { line = candidate } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }

    private func advance(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }
}
