import Synchronization
import SystemKit

/// Draws the generic icon for a kind of content: a page (or folder) with a coloured band and a
/// symbol. It never reads the file, so it is ready the instant a request is made.
public enum IconRenderer {
    private struct Key: Hashable {
        let kind: ContentKind
        let side: Int
    }

    /// Drawn icons, by kind and size: a handful of entries, each drawn once per process.
    private static let drawn = Mutex<[Key: PixelImage]>([:])

    /// The icon for `kind`, a square of `side` pixels with a transparent background.
    public static func icon(for kind: ContentKind, side: Int) -> PixelImage {
        // Icons are placeholders: drawn at most 256 px (16 samples a pixel is not free) and scaled up.
        // Only the drawn ones are kept (at most 256 KB each); scaled-up copies are made per call.
        let key = Key(kind: kind, side: min(side, 256))
        let small: PixelImage
        if let icon = drawn.withLock({ $0[key] }) {
            small = icon
        } else {
            small = draw(kind, side: key.side)
            drawn.withLock { cache in
                if cache.count > 64 { cache.removeAll() }
                cache[key] = small
            }
        }
        return small.width == side ? small : small.resized(to: PixelSize(width: side, height: side))
    }

    private static func draw(_ kind: ContentKind, side: Int) -> PixelImage {
        var canvas = VectorCanvas(side: max(side, 1))
        if kind == .folder {
            drawFolder(on: &canvas)
        } else {
            drawPage(on: &canvas, accent: accent(for: kind))
            drawSymbol(for: kind, on: &canvas)
        }
        return canvas.image
    }

    /// The accent colour of a kind, shared with the terminal UI's kind glyphs.
    public static func accent(for kind: ContentKind) -> RGBA {
        switch kind {
        case .folder: return RGBA(0x5B, 0x9B, 0xD5)
        case .image: return RGBA(0x2E, 0xA0, 0x5A)
        case .rawImage: return RGBA(0x1F, 0x7A, 0x6C)
        case .video: return RGBA(0x8E, 0x44, 0xAD)
        case .audio: return RGBA(0xE6, 0x7E, 0x22)
        case .pdf: return RGBA(0xC0, 0x39, 0x2B)
        case .text: return RGBA(0x7F, 0x8C, 0x8D)
        case .document: return RGBA(0x29, 0x80, 0xB9)
        case .archive: return RGBA(0xA0, 0x7A, 0x38)
        case .unknown: return RGBA(0x95, 0xA5, 0xA6)
        }
    }

    private static let paper = RGBA(0xF7, 0xF7, 0xF5)
    private static let outline = RGBA(0x60, 0x66, 0x6A)
    private static let ink = RGBA(0xB8, 0xBE, 0xC2)

    private static func drawFolder(on canvas: inout VectorCanvas) {
        let color = accent(for: .folder)
        let darker = RGBA(0x3F, 0x7C, 0xB5)
        canvas.rectangle(darker, x0: 0.08, y0: 0.18, x1: 0.45, y1: 0.32, radius: 0.03)
        canvas.rectangle(darker, x0: 0.08, y0: 0.24, x1: 0.92, y1: 0.84, radius: 0.04)
        canvas.rectangle(color, x0: 0.08, y0: 0.32, x1: 0.92, y1: 0.84, radius: 0.04)
    }

    private static func drawPage(on canvas: inout VectorCanvas, accent: RGBA) {
        let left = 0.17, right = 0.83, top = 0.06, bottom = 0.94, fold = 0.18
        let page = [(left, top), (right - fold, top), (right, top + fold), (right, bottom), (left, bottom)]
        let border = 0.012
        canvas.polygon(outline, page.map { ($0.0 + ($0.0 < 0.5 ? -border : border), $0.1 + ($0.1 < 0.5 ? -border : border)) })
        canvas.polygon(paper, page)
        canvas.polygon(RGBA(0xD5, 0xD9, 0xDC), [(right - fold, top), (right - fold, top + fold), (right, top + fold)])
        canvas.rectangle(accent, x0: left, y0: 0.70, x1: right, y1: bottom)
    }

    private static func drawSymbol(for kind: ContentKind, on canvas: inout VectorCanvas) {
        let color = accent(for: kind)
        switch kind {
        case .image, .rawImage:
            canvas.circle(RGBA(0xF1, 0xC4, 0x0F), cx: 0.62, cy: 0.30, r: 0.06)
            canvas.polygon(color, [(0.24, 0.62), (0.40, 0.36), (0.54, 0.62)])
            canvas.polygon(color, [(0.42, 0.62), (0.58, 0.44), (0.76, 0.62)])
        case .video:
            canvas.polygon(color, [(0.40, 0.26), (0.40, 0.58), (0.66, 0.42)])
        case .audio:
            canvas.circle(color, cx: 0.42, cy: 0.56, r: 0.07)
            canvas.rectangle(color, x0: 0.46, y0: 0.22, x1: 0.50, y1: 0.56)
            canvas.polygon(color, [(0.46, 0.22), (0.64, 0.28), (0.64, 0.36), (0.50, 0.31)])
        case .archive:
            for row in 0..<6 {
                let y = 0.10 + Double(row) * 0.09
                canvas.rectangle(color, x0: row % 2 == 0 ? 0.44 : 0.50, y0: y, x1: row % 2 == 0 ? 0.50 : 0.56, y1: y + 0.045)
            }
            canvas.rectangle(color, x0: 0.43, y0: 0.62, x1: 0.57, y1: 0.68, radius: 0.01)
        case .pdf, .text, .document, .unknown:
            let lines = kind == .unknown ? 0 : 6
            for line in 0..<lines {
                let y = 0.22 + Double(line) * 0.07
                canvas.rectangle(ink, x0: 0.26, y0: y, x1: line % 3 == 2 ? 0.58 : 0.72, y1: y + 0.03)
            }
        case .folder:
            break
        }
    }
}
