import Testing
@testable import SystemKit

#if canImport(Glibc)
import Glibc
#endif

@Suite struct VolumeGoneTests {
    @Test func errnosOfAVanishedVolumeCount() {
        for code in [ENOTCONN, EIO, ESTALE, ENODEV, ENXIO, ESHUTDOWN, ECONNABORTED, EHOSTDOWN] {
            #expect(VolumeGone.matches(code), "errno \(code)")
            #expect(FileSystemError(errno: code).meansVolumeGone)
        }
    }

    @Test func problemsWithOneFileDoNot() {
        for code in [ENOENT, EACCES, EPERM, EEXIST, ENOSPC, EROFS, EXDEV, EINVAL, 0] {
            #expect(!VolumeGone.matches(code), "errno \(code)")
            #expect(!FileSystemError(errno: code).meansVolumeGone)
        }
    }

    @Test func aVolumeThatDoesNotAnswerIsNotGone() {
        #expect(!FileSystemError.notResponding("/mnt/share").meansVolumeGone)
    }
}
