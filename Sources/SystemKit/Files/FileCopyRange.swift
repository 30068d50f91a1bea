internal import CSystem

/// copy_file_range(2) from the current offsets: reflinks and server-side copies where the
/// filesystem can, a kernel-side copy elsewhere.
public enum FileCopyRange {
    /// Copies up to `length` bytes from `input` to `output`; the count copied (0 at the end of
    /// the input), or -1 with errno set (EINTR already retried).
    public static func copy(from input: Int32, to output: Int32, length: Int) -> Int {
        SystemCall.retryingInterrupts { CSystem_copy_file_range(input, output, UInt(length)) }
    }
}
