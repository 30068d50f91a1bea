/// The file formats a thumbnail can be saved in.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg

    public var fileExtension: String { self == .png ? "png" : "jpg" }

    public func encode(_ image: PixelImage) -> [UInt8] {
        switch self {
        case .png: return PNGEncoder.encode(image, opaqueAsRGB: true)
        case .jpeg: return JPEGEncoder.encode(image)
        }
    }
}
