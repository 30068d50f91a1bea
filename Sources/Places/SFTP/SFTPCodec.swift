/// Packets of the SFTP protocol, version 3, to bytes and back: each is a 32-bit big-endian length,
/// a type byte, the request's id and its fields (strings as a 32-bit length and their bytes).
/// Pure: the connection reads a packet's length, then its body, and hands the body here; an
/// answer that does not hold what its type says fails `SFTPCodec.Malformed`, never traps.
package enum SFTPCodec {
    /// The version this side speaks.
    package static let version: UInt32 = 3
    /// The largest packet read (OpenSSH's sftp-server sends at most 256 KiB of data in one).
    package static let maximumPacket = 1 << 20

    package struct Malformed: Error, Equatable {
        package let reason: String
    }

    /// SSH_FXP_INIT with this side's version.
    package static func hello() -> [UInt8] {
        var body: [UInt8] = [1]
        put(version, into: &body)
        return framed(body)
    }

    /// `request` as a packet with `id`.
    package static func encode(_ request: SFTPRequest, id: UInt32) -> [UInt8] {
        var body: [UInt8] = [request.type]
        put(id, into: &body)
        switch request {
        case .open(let path, let flags):
            put(path, into: &body)
            put(flags, into: &body)
            put(UInt32(0), into: &body)  // no attributes
        case .create(let path, let flags, let permissions):
            put(path, into: &body)
            put(flags, into: &body)
            put(UInt32(0x4), into: &body)  // SSH_FILEXFER_ATTR_PERMISSIONS
            put(permissions, into: &body)
        case .setPermissions(let path, let permissions):
            put(path, into: &body)
            put(UInt32(0x4), into: &body)
            put(permissions, into: &body)
        case .close(let handle), .readDirectory(let handle):
            put(handle, into: &body)
        case .read(let handle, let offset, let length):
            put(handle, into: &body)
            put(UInt32(truncatingIfNeeded: offset >> 32), into: &body)
            put(UInt32(truncatingIfNeeded: offset), into: &body)
            put(length, into: &body)
        case .write(let handle, let offset, let data):
            put(handle, into: &body)
            put(UInt32(truncatingIfNeeded: offset >> 32), into: &body)
            put(UInt32(truncatingIfNeeded: offset), into: &body)
            put(data, into: &body)
        case .lstat(let path), .stat(let path), .openDirectory(let path), .remove(let path), .removeDirectory(let path),
             .realPath(let path):
            put(path, into: &body)
        case .makeDirectory(let path):
            put(path, into: &body)
            put(UInt32(0), into: &body)
        case .rename(let from, let to):
            put(from, into: &body)
            put(to, into: &body)
        case .fsync(let handle):
            put(Array("fsync@openssh.com".utf8), into: &body)
            put(handle, into: &body)
        case .copyData(let from, let offset, let length, let to, let at):
            put(Array("copy-data".utf8), into: &body)
            put(from, into: &body)
            for value in [offset, length] { put(UInt32(truncatingIfNeeded: value >> 32), into: &body); put(UInt32(truncatingIfNeeded: value), into: &body) }
            put(to, into: &body)
            put(UInt32(truncatingIfNeeded: at >> 32), into: &body)
            put(UInt32(truncatingIfNeeded: at), into: &body)
        }
        return framed(body)
    }

    /// The length a packet's first four bytes announce.
    package static func length(_ head: [UInt8]) -> Int {
        head.prefix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    /// The answer a packet's body (after its length) holds.
    package static func decode(_ body: [UInt8]) throws(Malformed) -> SFTPReply {
        var reader = Reader(bytes: body)
        let type = try reader.byte()
        if type == 2 { return .version(try reader.uint32()) }
        let id = try reader.uint32()
        switch type {
        case 101:
            let code = try reader.uint32()
            // Servers of the first drafts send no message: none is no failure.
            let message = reader.isAtEnd ? "" : String(decoding: try reader.string(), as: UTF8.self)
            return .status(id: id, code: code, message: message)
        case 102: return .handle(id: id, handle: try reader.string())
        case 103: return .data(id: id, bytes: try reader.string())
        case 104:
            let count = Int(try reader.uint32())
            guard count <= body.count / 9 else { throw Malformed(reason: "a name list of \(count) entries in \(body.count) bytes") }
            var names: [SFTPName] = []
            names.reserveCapacity(count)
            for _ in 0..<count {
                let name = try reader.string()
                _ = try reader.string()  // ls -l's line: not used
                names.append(SFTPName(name: name, attributes: try reader.attributes()))
            }
            return .names(id: id, names)
        case 105: return .attributes(id: id, try reader.attributes())
        default: throw Malformed(reason: "an answer of type \(type)")
        }
    }

    private static func framed(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 4)
        put(UInt32(body.count), into: &out)
        return out + body
    }

    static func put(_ value: UInt32, into bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    static func put(_ string: [UInt8], into bytes: inout [UInt8]) {
        put(UInt32(string.count), into: &bytes)
        bytes += string
    }

    /// Reads fields off a body, every length checked against what is left.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }

        mutating func byte() throws(Malformed) -> UInt8 {
            guard position < bytes.count else { throw Malformed(reason: "an answer cut short") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint32() throws(Malformed) -> UInt32 {
            guard position + 4 <= bytes.count else { throw Malformed(reason: "an answer cut short") }
            defer { position += 4 }
            return bytes[position..<(position + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }

        mutating func uint64() throws(Malformed) -> UInt64 {
            UInt64(try uint32()) << 32 | UInt64(try uint32())
        }

        mutating func string() throws(Malformed) -> [UInt8] {
            let count = Int(try uint32())
            guard count <= bytes.count - position else { throw Malformed(reason: "a string of \(count) bytes past the answer's end") }
            defer { position += count }
            return Array(bytes[position..<(position + count)])
        }

        mutating func attributes() throws(Malformed) -> SFTPAttributes {
            let flags = try uint32()
            var attributes = SFTPAttributes()
            if flags & 0x1 != 0 { attributes.size = try uint64() }
            if flags & 0x2 != 0 { _ = try uint32(); _ = try uint32() }  // uid, gid
            if flags & 0x4 != 0 { attributes.permissions = try uint32() }
            if flags & 0x8 != 0 { _ = try uint32(); attributes.modified = try uint32() }  // atime, mtime
            if flags & 0x8000_0000 != 0 {
                let count = try uint32()
                guard Int(count) <= (bytes.count - position) / 8 else { throw Malformed(reason: "\(count) extended attributes") }
                for _ in 0..<count { _ = try string(); _ = try string() }
            }
            return attributes
        }
    }
}
