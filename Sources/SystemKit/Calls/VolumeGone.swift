#if canImport(Glibc)
import Glibc
#endif

/// The one rule for "the volume is gone": the errnos a call gets when the volume under a path was
/// unplugged, unmounted under it, or its server or FUSE daemon went away, as opposed to a problem
/// with one file. The lister leaves such a folder, the volume monitor marks the volume
/// disconnected, and a file operation stops instead of trying the next item.
public enum VolumeGone {
    /// ENOTCONN (FUSE daemon dead), EIO (device gone mid-call), ESTALE (NFS/SMB handle from a
    /// server that restarted), ENODEV/ENXIO (device removed), ESHUTDOWN, ECONNABORTED,
    /// EHOSTDOWN (the server is down).
    public static let errnos: Set<Int32> = [ENOTCONN, EIO, ESTALE, ENODEV, ENXIO, ESHUTDOWN, ECONNABORTED, EHOSTDOWN]

    /// Whether `errno` means the volume itself is gone.
    public static func matches(_ errno: Int32) -> Bool { errnos.contains(errno) }
}
