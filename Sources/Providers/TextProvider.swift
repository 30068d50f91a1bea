import CCairo
import ThumbnailKit

/// Text and source code: the first lines drawn as a page in a monospace font (DejaVu Sans Mono
/// through cairo and fontconfig), like a sheet of paper seen from afar.
public struct TextProvider: ThumbnailProvider {
    public let name = "text"

    static let columns = 64
    static let rows = 40

    public init() {}

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        guard job.wantsThumbnail else { return }
        let file = try FileBytes(path: job.path)
        let lines = TextPreview.lines(from: file.read(at: 0, count: 16 * 1024), maxLines: Self.rows, maxColumns: Self.columns)
        // A page a little taller than wide (ISO 216's 1:√2 is too narrow for a terminal tile).
        let page = ThumbnailGeometry.fit(PixelSize(width: 1000, height: 1300), in: job.box, upscale: true)
        let surface = try CairoSurface(size: page)
        let cr = surface.context
        let margin = Double(page.width) * 0.06
        let fontSize = max(2, (Double(page.width) - 2 * margin) / (Double(Self.columns) * 0.6))
        cairo_select_font_face(cr, "DejaVu Sans Mono", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, fontSize)
        cairo_set_source_rgb(cr, 0.13, 0.14, 0.16)
        let lineHeight = fontSize * 1.25
        var y = margin + fontSize
        for line in lines where y < Double(page.height) - margin / 2 {
            try job.cancellation.check()
            cairo_move_to(cr, margin, y)
            cairo_show_text(cr, line)
            y += lineHeight
        }
        // A thin grey edge so a white page reads as a page on a white background.
        cairo_set_source_rgb(cr, 0.75, 0.76, 0.78)
        cairo_set_line_width(cr, 1)
        cairo_rectangle(cr, 0.5, 0.5, Double(page.width) - 1, Double(page.height) - 1)
        cairo_stroke(cr)
        emit(ProviderImage(.thumbnail, surface.pixelImage(), source: name))
    }
}
