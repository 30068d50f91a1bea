/// The requests and answers of the SFTP protocol, version 3 (draft-ietf-secsh-filexfer-02), that a
/// `SFTPPlace` sends and reads: what OpenSSH's `sftp-server` (and every server since 2001) speaks.
/// Paths and names are bytes: a name that is not UTF-8 crosses unchanged (`FileSystemBytes`).
package enum SFTPRequest: Sendable, Equatable {
    case open(path: [UInt8], flags: UInt32)
    /// OPEN with an ATTRS holding `permissions` (the mode a new file is made with).
    case create(path: [UInt8], flags: UInt32, permissions: UInt32)
    /// SETSTAT with an ATTRS holding only `permissions` (a chmod).
    case setPermissions(path: [UInt8], permissions: UInt32)
    case close(handle: [UInt8])
    case read(handle: [UInt8], offset: UInt64, length: UInt32)
    case write(handle: [UInt8], offset: UInt64, data: [UInt8])
    case lstat(path: [UInt8])
    case stat(path: [UInt8])
    case openDirectory(path: [UInt8])
    case readDirectory(handle: [UInt8])
    case remove(path: [UInt8])
    case makeDirectory(path: [UInt8])
    case removeDirectory(path: [UInt8])
    case realPath(path: [UInt8])
    case rename(from: [UInt8], to: [UInt8])
    /// OpenSSH's `fsync@openssh.com` extension (SSH_FXP_EXTENDED): the file of `handle` flushed
    /// to its disk; a server without it answers SSH_FX_OP_UNSUPPORTED.
    case fsync(handle: [UInt8])
    /// OpenSSH's `copy-data` extension (SSH_FXP_EXTENDED, OpenSSH 9.0 and later): `length` bytes
    /// (0: to the end) of the file open as `from` from `offset`, written at `at` of the file
    /// open as `to`, by the server itself; one without it answers SSH_FX_OP_UNSUPPORTED.
    case copyData(from: [UInt8], offset: UInt64, length: UInt64, to: [UInt8], at: UInt64)

    /// SSH_FXF_*: how `open` opens.
    package static let readFlag: UInt32 = 0x01, writeFlag: UInt32 = 0x02, createFlag: UInt32 = 0x08, exclusiveFlag: UInt32 = 0x20

    /// The packet type (SSH_FXP_*).
    var type: UInt8 {
        switch self {
        case .open, .create: 3
        case .setPermissions: 9
        case .close: 4
        case .read: 5
        case .write: 6
        case .lstat: 7
        case .openDirectory: 11
        case .readDirectory: 12
        case .remove: 13
        case .makeDirectory: 14
        case .removeDirectory: 15
        case .realPath: 16
        case .stat: 17
        case .rename: 18
        case .fsync, .copyData: 200
        }
    }
}

/// An answer of the server, with the id of the request it answers (none for `version`).
package enum SFTPReply: Sendable, Equatable {
    case version(UInt32)
    case status(id: UInt32, code: UInt32, message: String)
    case handle(id: UInt32, handle: [UInt8])
    case data(id: UInt32, bytes: [UInt8])
    case names(id: UInt32, [SFTPName])
    case attributes(id: UInt32, SFTPAttributes)

    /// The id of the request answered; nil for the version.
    package var id: UInt32? {
        switch self {
        case .version: nil
        case .status(let id, _, _), .handle(let id, _), .data(let id, _), .names(let id, _), .attributes(let id, _): id
        }
    }

    /// SSH_FX_*: the status codes a server sends.
    package static let ok: UInt32 = 0, endOfFile: UInt32 = 1, noSuchFile: UInt32 = 2, permissionDenied: UInt32 = 3, failure: UInt32 = 4,
                          unsupported: UInt32 = 8
}

/// A file's attributes as the server sends them: each one only when its flag says it is there.
package struct SFTPAttributes: Sendable, Equatable {
    package var size: UInt64?
    package var permissions: UInt32?
    package var modified: UInt32?

    package init(size: UInt64? = nil, permissions: UInt32? = nil, modified: UInt32? = nil) {
        self.size = size
        self.permissions = permissions
        self.modified = modified
    }

    /// The file type bits of `permissions` (S_IFMT), when sent.
    private var type: UInt32? { permissions.map { $0 & 0o170000 } }
    package var isDirectory: Bool { type == 0o040000 }
    package var isSymbolicLink: Bool { type == 0o120000 }
    package var isRegularFile: Bool { type == 0o100000 }
}

/// One entry of a `names` answer: its name's bytes (a listing's, or a path's) and attributes.
package struct SFTPName: Sendable, Equatable {
    package var name: [UInt8]
    package var attributes: SFTPAttributes

    package init(name: [UInt8], attributes: SFTPAttributes) {
        self.name = name
        self.attributes = attributes
    }
}
