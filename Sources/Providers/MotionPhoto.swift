import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The movie inside a Google or Samsung Motion Photo: a JPEG (or HEIC) with a short MP4 appended,
/// found from its XMP (`GCamera:MicroVideoOffset`, or the `Container:Directory` item whose
/// semantic is `MotionPhoto` with its length) or from Samsung's `MotionPhoto_Data` marker, and
/// checked to start with an MP4 `ftyp` box. libav then reads the movie from that offset.
public enum MotionPhoto {

    /// Where the movie starts in the file at `path`, or nil for an ordinary picture.
    public static func movieOffset(path: String) -> Int? {
        guard FileFact.mayBeMotionPhoto(path), let file = try? FileBytes(path: path), file.size > 64 else { return nil }
        // The XMP sits in the first segments, after the EXIF (at most 64 KB).
        let head = file.read(at: 0, count: min(file.size, 160 << 10))
        guard head.starts(with: [0xFF, 0xD8]) || head[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        var candidates: [Int] = []
        if let offset = attribute("MicroVideoOffset", in: head) { candidates.append(file.size - offset) }
        if let length = motionItemLength(in: head) { candidates.append(file.size - length) }
        // Samsung: a trailer ending in "SEFT" names its parts; the movie follows a marker near the end.
        if candidates.isEmpty, file.read(at: file.size - 4, count: 4).elementsEqual(Array("SEFT".utf8)) {
            let tailStart = max(0, file.size - (32 << 20))
            let tail = file.read(at: tailStart, count: file.size - tailStart)
            if let marker = tail.lastRange(of: Array("MotionPhoto_Data".utf8)) { candidates.append(tailStart + marker.upperBound) }
        }
        return candidates.first { offset in
            offset > 0 && offset + 12 < file.size && file.read(at: offset + 4, count: 4).elementsEqual(Array("ftyp".utf8))
        }
    }

    /// libav's name for the movie found inside the file at `offset` (its `subfile` protocol), or
    /// the path itself for an ordinary file (`offset` nil).
    public static func mediaURL(path: String, movieAt offset: Int?) -> (url: String, isMotionPhoto: Bool) {
        offset.map { ("subfile,,start,\($0),end,0,,:\(path)", true) } ?? (path, false)
    }


    /// The number the XMP gives `name`, written as an attribute (`name="1234"`) or an element
    /// (`<ns:name>1234</ns:name>`).
    private static func attribute(_ name: String, in bytes: [UInt8]) -> Int? {
        guard let range = find(name + "=\"", in: bytes) ?? find(name + ">", in: bytes) else { return nil }
        let digits = bytes[range.upperBound...].prefix { $0 >= 0x30 && $0 <= 0x39 }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    /// The `Item:Length` of the container item whose semantic is `MotionPhoto`.
    private static func motionItemLength(in bytes: [UInt8]) -> Int? {
        guard let semantic = find("Item:Semantic=\"MotionPhoto\"", in: bytes) else { return nil }
        let start = bytes[..<semantic.lowerBound].lastRange(of: Array("<Container:Item".utf8))?.lowerBound ?? semantic.lowerBound
        let end = bytes[semantic.upperBound...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.endIndex
        return attribute("Item:Length", in: Array(bytes[start..<end]))
    }

    /// Where `text` first is in `bytes`: memchr to each candidate first byte, memcmp for the rest
    /// (every camera JPEG's facts look here, so it must be quick; a generic search took ~15 ms).
    private static func find(_ text: String, in bytes: [UInt8]) -> Range<Int>? {
        let needle = Array(text.utf8)
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        return bytes.withUnsafeBytes { haystack -> Range<Int>? in
            needle.withUnsafeBytes { pattern -> Range<Int>? in
                guard let base = haystack.baseAddress else { return nil }
                var offset = 0
                let last = haystack.count - needle.count
                while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, pattern.baseAddress!, needle.count) == 0 { return position..<(position + needle.count) }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}

private extension Collection where Element: Equatable, Index == Int {
    func lastRange(of needle: [Element]) -> Range<Int>? {
        guard needle.count <= count else { return nil }
        var index = endIndex - needle.count
        while index >= startIndex {
            if self[index..<(index + needle.count)].elementsEqual(needle) { return index..<(index + needle.count) }
            index -= 1
        }
        return nil
    }
}
