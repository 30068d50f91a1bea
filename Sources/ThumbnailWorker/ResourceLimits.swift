#if canImport(Glibc)
import Glibc
#endif
import SystemKit
import ThumbnailKit

/// The kernel-enforced limits a worker puts on itself: address space for the whole process,
/// CPU time re-armed before each file (RLIMIT_CPU counts the process's total, so each file gets
/// its allowance on top of what was already used).
enum ResourceLimits {
    static func limitAddressSpace(bytes: Int) {
        guard bytes > 0 else { return }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    }

    /// This process's mapped address space in bytes (from /proc/self/statm), 0 when unknown.
    static func addressSpaceInUse() -> Int {
        guard let bytes = FileDescriptorReader.readFile("/proc/self/statm", upTo: 256),
              let pages = String(decoding: bytes, as: UTF8.self).split(separator: " ").first.flatMap({ Int($0) }) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func armCPULimit(seconds: Int) {
        guard seconds > 0 else { return }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
        limit.rlim_cur = rlim_t(used + seconds)
        if limit.rlim_max != rlim_t.max && limit.rlim_cur > limit.rlim_max { limit.rlim_cur = limit.rlim_max }
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }
}
