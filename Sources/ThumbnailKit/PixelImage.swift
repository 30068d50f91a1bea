/// An 8-bit RGBA picture with straight (not premultiplied) alpha, rows packed top to bottom.
///
/// The one image type every layer shares: providers produce it, encoders and terminal drivers
/// consume it, and it crosses the worker pipe as raw bytes.
public struct PixelImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes, RGBA.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A picture of one colour.
    public init(width: Int, height: Int, filledWith color: RGBA) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = color.red
            pixels[index + 1] = color.green
            pixels[index + 2] = color.blue
            pixels[index + 3] = color.alpha
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public func pixel(x: Int, y: Int) -> RGBA {
        let offset = (y * width + x) * 4
        return RGBA(pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
}

/// One RGBA colour, 8 bits per channel.
public struct RGBA: Sendable, Equatable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = RGBA(255, 255, 255)
    public static let black = RGBA(0, 0, 0)
    public static let clear = RGBA(0, 0, 0, 0)
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}
