import SystemKit
#if canImport(Glibc)
import Glibc
#endif

extension VolumeIO {
    /// How a volume answered a listing of one of its folders.
    public enum ListingAnswer: Sendable, Equatable {
        /// The folder could be listed: the volume is there.
        case listed
        /// Opening or reading the folder failed with this errno.
        case failed(Int32)
        /// No answer within the deadline (or the volume takes no calls while one is stuck).
        case silent
    }

    /// Lists `folder` on a thread of its own with a deadline, to tell whether its volume still
    /// answers. A listing, not a stat: smbnetfs answers a stat from its cache after the server is
    /// gone, but a listing reaches the server; a dead share may never answer at all.
    public func probeListing(_ folder: String, volume: String, deadline: Double = 2) async -> ListingAnswer {
        await withCheckedContinuation { continuation in
            run(volume: volume, deadline: deadline, { () -> Int32 in
                guard let directory = opendir(folder) else { return errno }
                defer { closedir(directory) }
                errno = 0
                return readdir(directory) != nil || errno == 0 ? 0 : errno
            }, completion: { outcome in
                switch outcome {
                case .done(0): continuation.resume(returning: .listed)
                case .done(let code): continuation.resume(returning: .failed(code))
                case .timedOut, .refused: continuation.resume(returning: .silent)
                }
            })
        }
    }
}
