import FileSystemKit
import SystemKit

/// The volumes feature's state: every mounted volume as the monitor last saw it, the volumes
/// view's cursor, and what each volume allows once probed (asked once).
public struct VolumesState: Sendable, Equatable {
    public internal(set) var statuses: [VolumeMonitor.Status] = []
    public internal(set) var cursor = 0
    /// What each volume allows, by mount point.
    public internal(set) var capabilities: [String: VolumeCapabilities] = [:]
    /// Volumes already asked what they allow.
    var asked: Set<String> = []
}
