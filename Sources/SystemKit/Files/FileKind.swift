#if canImport(Glibc)
import Glibc
#endif

/// What a directory entry is, from its mode: the words a refusal uses when something that is not a
/// regular file stands where one was expected ("is a FIFO", "is a device").
public enum FileKind: Sendable, Equatable {
    case regular, folder, fifo, characterDevice, blockDevice, socket, symbolicLink, other

    /// The kind of a `stat`'s `st_mode`.
    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// "is a FIFO", "is a device", "is a socket", "is a symbolic link", "is a folder": said of a
    /// file that was refused because it is not a regular file.
    public var refusal: String {
        switch self {
        case .regular: return "is a regular file"
        case .folder: return "is a folder"
        case .fifo: return "is a FIFO"
        case .characterDevice, .blockDevice: return "is a device"
        case .socket: return "is a socket"
        case .symbolicLink: return "is a symbolic link"
        case .other: return "is not a regular file"
        }
    }
}
