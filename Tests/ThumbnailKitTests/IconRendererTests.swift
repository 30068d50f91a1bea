import SystemKit
import Testing
@testable import ThumbnailKit

@Suite struct IconRendererTests {
    @Test func everyKindHasAnIconOfTheRequestedSize() {
        for kind in ContentKind.allCases {
            let icon = IconRenderer.icon(for: kind, side: 64)
            #expect(icon.size == PixelSize(width: 64, height: 64))
            let opaque = stride(from: 3, to: icon.pixels.count, by: 4).filter { icon.pixels[$0] > 0 }.count
            #expect(opaque > 64 * 64 / 4, "the \(kind) icon should cover a good part of its square")
        }
    }

    @Test func kindsAreTellApart() {
        #expect(IconRenderer.icon(for: .video, side: 48) != IconRenderer.icon(for: .audio, side: 48))
    }
}
