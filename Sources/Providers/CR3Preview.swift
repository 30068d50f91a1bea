import ThumbnailKit

/// The JPEG preview a Canon CR3 carries (ISO BMFF): a top-level `uuid` box
/// (eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16) holding a `PRVW` box with a 1620×1080 (or so) JPEG, and
/// the camera and orientation from the `CMT1` TIFF block in `moov`'s Canon `uuid` box. Read without
/// libraw, which cannot open CR3s of cameras newer than itself (libraw 0.20 and the EOS R6): the
/// preview needs nothing of the sensor data.
struct CR3Preview: Equatable {
    /// Where the JPEG's bytes are in the file.
    let jpeg: Range<Int>
    let width: Int
    let height: Int
    /// EXIF orientation (1…8) from CMT1; 1 when absent.
    let orientation: Int
    /// "Canon EOS R6", when CMT1 names it.
    let camera: String?

    private static let previewUUID: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]
    private static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]

    /// Whether the bytes begin like a CR3 (`ftyp` with the `crx ` brand).
    static func isCR3(_ head: [UInt8]) -> Bool {
        head.count >= 12 && Array(head[4..<12]) == Array("ftypcrx ".utf8)
    }

    /// The preview of the CR3 in `file`, or nil when it is not a CR3 or has no sound PRVW box.
    static func locate(in file: FileBytes) -> CR3Preview? {
        guard isCR3(file.read(at: 0, count: 12)) else { return nil }
        var found: (jpeg: Range<Int>, width: Int, height: Int)?
        var tiff: (orientation: Int, camera: String?) = (1, nil)
        for box in boxes(in: file, from: 0, to: file.size) {
            if box.type == "moov" {
                for child in boxes(in: file, from: box.content.lowerBound, to: box.content.upperBound)
                where child.type == "uuid" && file.read(at: child.content.lowerBound, count: 16) == canonUUID {
                    // CMT1 (IFD0: make, model, orientation) is among the first boxes; 1 MiB is plenty.
                    let body = child.content.lowerBound + 16
                    for entry in boxes(in: file, from: body, to: min(child.content.upperBound, body + (1 << 20))) where entry.type == "CMT1" {
                        tiff = readTIFF(file.read(at: entry.content.lowerBound, count: min(entry.content.count, 1 << 16)))
                    }
                }
            } else if box.type == "uuid", file.read(at: box.content.lowerBound, count: 16) == previewUUID {
                // 16 bytes of UUID, 8 of unknown meaning, then PRVW: size, "PRVW", 4 + 2 bytes,
                // width and height (16 bits each), 2 bytes, the JPEG's length (32 bits), the JPEG.
                let start = box.content.lowerBound + 24
                let header = file.read(at: start, count: 32)
                guard header.count == 32, Array(header[4..<8]) == Array("PRVW".utf8) else { continue }
                let boxSize = uint32(header, 0), length = uint32(header, 20)
                let jpegStart = start + 24
                guard length > 4, 24 + length <= boxSize, start + boxSize <= box.content.upperBound, header[24] == 0xFF, header[25] == 0xD8
                else { continue }
                found = (jpegStart..<jpegStart + length, uint16(header, 14), uint16(header, 16))
            }
        }
        guard let found else { return nil }
        return CR3Preview(jpeg: found.jpeg, width: found.width, height: found.height, orientation: tiff.orientation, camera: tiff.camera)
    }

    private struct Box {
        let type: String
        let content: Range<Int>
    }

    /// The boxes between `start` and `end` (at most 256; a box that runs past `end` ends the walk).
    private static func boxes(in file: FileBytes, from start: Int, to end: Int) -> [Box] {
        var found: [Box] = []
        var offset = start
        while offset + 8 <= end, found.count < 256 {
            let header = file.read(at: offset, count: 16)
            guard header.count >= 8 else { break }
            var size = uint32(header, 0), headerSize = 8
            if size == 1 {
                guard header.count == 16 else { break }
                size = (uint32(header, 8) << 32) | uint32(header, 12)
                headerSize = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= headerSize, offset + size <= end else { break }
            found.append(Box(type: String(decoding: header[4..<8], as: UTF8.self), content: (offset + headerSize)..<(offset + size)))
            offset += size
        }
        return found
    }

    /// Orientation and camera from CMT1's IFD0.
    private static func readTIFF(_ bytes: [UInt8]) -> (orientation: Int, camera: String?) {
        guard let reader = TIFFReader(bytes), let ifd0 = reader.firstIFDOffset else { return (1, nil) }
        let entries = reader.entries(at: ifd0)
        func text(_ tag: Int) -> String? {
            guard let entry = entries.first(where: { $0.tag == tag && $0.type == 2 }), entry.count > 0 else { return nil }
            let start = entry.count <= 4 ? nil : entry.value
            guard let start, start + entry.count <= bytes.count else { return nil }
            let value = String(decoding: bytes[start..<(start + entry.count)].prefix { $0 != 0 }, as: UTF8.self)
            return value.isEmpty ? nil : value
        }
        let orientation = entries.first(where: { $0.tag == 0x0112 }).map(\.value).flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        let make = text(0x010F), model = text(0x0110)
        let camera = model.map { model in make.map { model.hasPrefix($0) ? model : "\($0) \(model)" } ?? model }
        return (orientation, camera)
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> Int {
        (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }
}
