#if canImport(Glibc)
import Glibc
#endif

/// The kernel-enforced limits a worker puts on itself: address space for the whole process,
/// CPU time re-armed before each file (RLIMIT_CPU counts the process's total, so each file gets
/// its allowance on top of what was already used).
enum ResourceLimits {
    static func limitAddressSpace(bytes: Int) {
        guard bytes > 0 else { return }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
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
