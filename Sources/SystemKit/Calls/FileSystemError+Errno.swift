#if canImport(Glibc)
import Glibc
#endif

extension FileSystemError.Code {
    /// The code an errno stands for; every errno that means "the volume is gone" maps to
    /// `.volumeGone` (the one rule, `VolumeGone`).
    public init(errno code: Int32) {
        if VolumeGone.matches(code) {
            self = .volumeGone
            return
        }
        switch code {
        case ENOENT, ENOTDIR: self = .notFound
        case EACCES, EPERM: self = .permissionDenied
        case EEXIST: self = .exists
        case ENOTEMPTY: self = .notEmpty
        case ENOSPC, EDQUOT: self = .noSpace
        case EROFS: self = .readOnly
        case EXDEV: self = .crossDevice
        case ENOSYS, EOPNOTSUPP: self = .unsupported
        case EINVAL, ENAMETOOLONG, EBADF: self = .invalid
        case EMFILE, ENFILE, ENOMEM, EAGAIN: self = .resourceExhausted
        case ETIMEDOUT: self = .notResponding
        case ECANCELED: self = .cancelled
        default: self = .other
        }
    }
}
