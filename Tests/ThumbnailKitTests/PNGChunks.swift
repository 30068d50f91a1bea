/// The chunks of a PNG as the tests read them, without the decoder under test: each one's type
/// and where its data lies in the file.
enum PNGChunks {
    static func list(_ png: [UInt8]) -> [(type: String, data: Range<Int>)] {
        var result: [(type: String, data: Range<Int>)] = []
        var position = 8
        while position + 8 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            result.append((type, (position + 8)..<(position + 8 + length)))
            position += 12 + length
        }
        return result
    }
}
