internal import CSystem

/// glibc's per-thread malloc arenas: each reserves 64 MiB of address space and keeps freed
/// memory of its own, so a process with a few busy threads is capped at a few.
public enum MallocArenas {
    /// Caps the arenas at `count`; false when glibc refused.
    @discardableResult
    public static func limit(to count: Int32) -> Bool { CSystem_limit_malloc_arenas(count) != 0 }

    /// Gives every block of `bytes` or more its own mapping, returned to the system as soon as
    /// it is freed. glibc otherwise raises that size to the largest block freed so far, and a
    /// long-lived program that once freed a big buffer (a listing batch, 1 MB and more for a
    /// huge folder) then keeps its successors in the arena, resident after they are freed.
    @discardableResult
    public static func mapBlocks(from bytes: Int32) -> Bool { CSystem_set_malloc_mmap_threshold(bytes) != 0 }
}
