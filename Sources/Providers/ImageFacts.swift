import SystemKit
import CVips
import ThumbnailKit

/// What an image file's header says: its displayed size, the camera, when it was taken.
/// Reads the header only (libvips opens images lazily), never the pixels.
enum ImageFacts {
    static func read(path: String) -> (facts: [FileFact], size: PixelSize?) {
        guard (try? VipsDecoder.start()) != nil else { return ([], nil) }
        guard let image = CVips_open_header(path) else {
            CVips_error_clear()
            return ([], nil)
        }
        defer { CVips_unref(image) }
        var width = Int(CVips_width(image)), height = Int(CVips_height(image))
        if CVips_orientation(image) >= 5 { swap(&width, &height) }
        var facts = [FileFact("dimensions", "\(width)×\(height)")]
        if MotionPhoto.movieOffset(path: path) != nil { facts.append(FileFact(FileFact.motionPhoto, "a movie inside (p plays it in Quick Look)")) }
        let make = field(image, "exif-ifd0-Make"), model = field(image, "exif-ifd0-Model")
        if let model {
            facts.append(FileFact("camera", make.map { model.hasPrefix($0) ? model : "\($0) \(model)" } ?? model))
        }
        if let taken = field(image, "exif-ifd2-DateTimeOriginal") ?? field(image, "exif-ifd0-DateTime") {
            facts.append(FileFact("taken", ExifDate.readable(taken)))
        }
        return (facts, PixelSize(width: width, height: height))
    }

    /// A vips EXIF string without its "(value, type, count)" decoration.
    private static func field(_ image: UnsafeMutablePointer<VipsImage>, _ name: String) -> String? {
        guard let raw = CVips_get_string(image, name) else { return nil }
        var text = String(cString: raw)
        if let paren = text.firstRange(of: " (") { text = String(text[..<paren.lowerBound]) }
        text = text.trimmingPrefix(while: { $0 == " " })
        while text.last == " " { text.removeLast() }
        return text.isEmpty ? nil : text
    }
}

/// EXIF dates (`2019:06:06 05:15:13`) as people write them (`2019-06-06 05:15`).
enum ExifDate {
    static func readable(_ exif: String) -> String {
        let parts = exif.split(separator: " ")
        guard parts.count >= 1 else { return exif }
        let date = parts[0].replacingOccurrences(":", "-")
        let time = parts.count > 1 ? " " + parts[1].prefix(5) : ""
        return date + time
    }
}

extension Substring {
    func replacingOccurrences(_ target: Character, _ replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
