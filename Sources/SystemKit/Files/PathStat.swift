internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// `stat(2)` and `statvfs(3)` by path, for `PathCalls`: Swift sees the struct names first and
/// cannot call them, and `PathCalls.swift` must not import CSystem (a fresh module cache would
/// then take `struct stat` in its public signatures for CSystem's, an internal type).
enum PathStat {
    static func stat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<Glibc.stat>) -> Int32 { CSystem_stat(path, info) }
    static func statvfs(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<Glibc.statvfs>) -> Int32 { CSystem_statvfs(path, info) }
}
