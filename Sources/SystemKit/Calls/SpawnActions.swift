internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// File actions for `posix_spawn` beyond the three standard streams.
public enum SpawnActions {
    /// The child closes every descriptor from 3 up: it gets none of the caller's by accident. A
    /// descriptor without close-on-exec (one a library opened) inherited by a long-lived child
    /// (ssh, sshd) keeps that pipe open, and whoever reads it to its end waits as long as the child.
    public static func closeOthers(_ actions: inout Glibc.posix_spawn_file_actions_t) {
        _ = CSystem_spawn_addclosefrom(&actions, 3)
    }
}
