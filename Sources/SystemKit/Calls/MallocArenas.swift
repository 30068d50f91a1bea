internal import CSystem

/// glibc's per-thread malloc arenas: each reserves 64 MiB of address space and keeps freed
/// memory of its own, so a process with a few busy threads is capped at a few.
public enum MallocArenas {
    /// Caps the arenas at `count`; false when glibc refused.
    @discardableResult
    public static func limit(to count: Int32) -> Bool { CSystem_limit_malloc_arenas(count) != 0 }
}
