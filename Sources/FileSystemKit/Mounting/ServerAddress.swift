/// A server's address as the user types it: `smb://[user@]host[:port]/share[/path]` or
/// `sftp://[user@]host[:port][/path]` (`ssh://` is taken as sftp). A password in the address
/// (`user:secret@`) is refused: it would end up in the shell's history and the recent list.
public struct ServerAddress: Sendable, Equatable, Hashable {
    public enum Scheme: String, Sendable {
        case smb, sftp
        /// The port when the address names none.
        public var defaultPort: Int { self == .smb ? 445 : 22 }
    }

    public let scheme: Scheme
    /// The user name, nil for the default (the login name for SFTP, a guest for SMB).
    public let user: String?
    public let host: String
    public let port: Int?
    /// The SMB share; empty for SFTP.
    public let share: String
    /// The folder under the share (SMB) or on the server (SFTP), without a leading slash; empty
    /// for the share's top (SMB) or the login folder (SFTP).
    public let path: String

    public init(scheme: Scheme, user: String?, host: String, port: Int?, share: String, path: String) {
        self.scheme = scheme
        self.user = user
        self.host = host
        self.port = port
        self.share = share
        self.path = path
    }

    /// Parses `text`; throws a sentence saying what is wrong with it.
    public init(parsing text: String) throws(MountFailure) {
        guard let schemeEnd = text.firstRange(of: "://") else {
            throw MountFailure(.other, "\(text) is not a server address: write smb://host/share, sftp://host/folder or ssh://host/folder")
        }
        let schemeName = text[..<schemeEnd.lowerBound].lowercased()
        guard let scheme = schemeName == "ssh" ? Scheme.sftp : Scheme(rawValue: schemeName) else {
            throw MountFailure(.other, "\(schemeName):// is not a kind of server qlbrowse connects to: smb://, sftp:// and ssh:// are")
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let pathPart = rest.dropFirst(authority.count).split(separator: "/").map { Self.decoded(String($0)) }
        var hostPart = Substring(authority)
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let userPart = authority[..<at]
            guard !userPart.contains(":") else {
                throw MountFailure(.other, "a password does not go in the address (it would be kept in the shell's history): qlbrowse asks for it")
            }
            user = Self.decoded(String(userPart))
            hostPart = authority[authority.index(after: at)...]
        }
        var port: Int?
        if let colon = hostPart.lastIndex(of: ":"), !hostPart[colon...].contains("]") {
            guard let number = Int(hostPart[hostPart.index(after: colon)...]), (1...65535).contains(number) else {
                throw MountFailure(.other, "\(hostPart[hostPart.index(after: colon)...]) is not a port number")
            }
            port = number
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw MountFailure(.other, "\(text) names no server") }
        if scheme == .smb {
            guard let share = pathPart.first else { throw MountFailure(.other, "\(text) names no share: write smb://\(hostPart)/SHARE") }
            self.init(scheme: scheme, user: user, host: String(hostPart), port: port, share: share, path: pathPart.dropFirst().joined(separator: "/"))
        } else {
            self.init(scheme: scheme, user: user, host: String(hostPart), port: port, share: "", path: pathPart.joined(separator: "/"))
        }
    }

    /// The address written back, without a password (for the recent list and messages).
    public var url: String {
        let who = user.map { Self.encoded($0) + "@" } ?? ""
        let at = port.map { "\(host):\($0)" } ?? host
        let segments = ([share] + path.split(separator: "/").map(String.init)).filter { !$0.isEmpty }
        let tail = segments.map { "/" + Self.encoded($0) }.joined()
        return "\(scheme.rawValue)://\(who)\(at)\(tail)"
    }

    /// What to call the volume: "pub on nas", "photos on host", or the host alone.
    public var label: String {
        let last = scheme == .smb ? share : (path.split(separator: "/").last.map(String.init) ?? "")
        return (last.isEmpty ? host : "\(last) on \(host)").map { $0 == "/" ? "_" : $0 }.reduce(into: "") { $0.append($1) }
    }

    /// `%20` and the like decoded; an invalid escape is kept as written.
    static func decoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = [], utf8 = Array(text.utf8), index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func encoded(_ text: String) -> String {
        text.utf8.map { byte in
            let safe = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a) || "-._~".utf8.contains(byte)
            return safe ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
    }
}
