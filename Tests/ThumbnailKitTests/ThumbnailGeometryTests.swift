import Testing
@testable import ThumbnailKit

@Suite struct ThumbnailGeometryTests {
    @Test func landscapeFitsTheBoxWidth() {
        #expect(ThumbnailGeometry.fit(PixelSize(width: 4000, height: 3000), in: PixelSize(width: 256, height: 256)) == PixelSize(width: 256, height: 192))
    }

    @Test func portraitFitsTheBoxHeight() {
        #expect(ThumbnailGeometry.fit(PixelSize(width: 480, height: 640), in: PixelSize(width: 256, height: 256)) == PixelSize(width: 192, height: 256))
    }

    @Test func smallPicturesAreNotEnlargedUnlessAsked() {
        #expect(ThumbnailGeometry.fit(PixelSize(width: 32, height: 16), in: PixelSize(width: 256, height: 256)) == PixelSize(width: 32, height: 16))
        #expect(ThumbnailGeometry.fit(PixelSize(width: 32, height: 16), in: PixelSize(width: 256, height: 256), upscale: true) == PixelSize(width: 256, height: 128))
    }

    @Test func extremeStripsKeepAtLeastOnePixel() {
        #expect(ThumbnailGeometry.fit(PixelSize(width: 100_000, height: 10), in: PixelSize(width: 256, height: 256)) == PixelSize(width: 256, height: 1))
    }

    @Test func pixelBoxAppliesScale() {
        #expect(ThumbnailGeometry.pixelBox(size: 128, scale: 2) == PixelSize(width: 256, height: 256))
    }
}
