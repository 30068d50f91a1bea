import FileSystemKit
import Synchronization

/// The mounted volumes as the state last gave the effect runner: which volume's threads the
/// browser's local place runs a path's call on, without reading the mount table each time.
final class KnownVolumes: Sendable {
    let list = Mutex<[Volume]>([])

    /// The list now (a closure for `LocalPlace(volumes:)`).
    var current: @Sendable () -> [Volume] { { [self] in list.withLock { $0 } } }
}
