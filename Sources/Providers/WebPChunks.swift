/// The chunks of a WebP file, in order from the first after its "RIFF", size, "WEBP" header: each
/// a four-character code, a little-endian length and the data, padded to an even length.
/// Shared by the animation timing (ANMF) and the still decoder's orientation (EXIF).
enum WebPChunks {
    /// Calls `visit(code, dataOffset, length)` for each chunk until it returns false or the file
    /// (`size` bytes, read through `read(offset, count)`) ends; a chunk's length is as the file
    /// says, and may pass the file's end.
    static func walk(size: Int, read: (_ offset: Int, _ count: Int) -> [UInt8], visit: (_ code: String, _ offset: Int, _ length: Int) -> Bool) {
        var offset = 12
        while offset + 8 <= size {
            let header = read(offset, 8)
            guard header.count == 8 else { return }
            let length = header[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard visit(String(decoding: header[0..<4], as: UTF8.self), offset + 8, length) else { return }
            offset += 8 + length + (length & 1)
        }
    }
}
