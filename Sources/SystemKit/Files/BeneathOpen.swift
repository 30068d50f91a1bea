internal import CSystem

/// `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`, the call behind `UntrustedFile.openRegular(beneath:_:)`.
enum BeneathOpen {
    /// The descriptor, or -1 with errno set (ENOSYS on kernels before 5.6).
    static func open(_ folder: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
        CSystem_openat_beneath(folder, path, flags)
    }
}
