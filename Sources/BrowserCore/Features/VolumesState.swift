import FileSystemKit
import SystemKit

/// The volumes feature's state: every mounted volume as the monitor last saw it, the drives not
/// mounted, the volumes view's cursor (over both), what each volume allows once probed (asked
/// once), and a connection under way.
public struct VolumesState: Sendable, Equatable {
    public internal(set) var statuses: [VolumeMonitor.Status] = []
    /// Drives that could be mounted (listed after the mounted volumes).
    public internal(set) var drives: [Drive] = []
    public internal(set) var cursor = 0
    /// What each volume allows, by mount point.
    public internal(set) var capabilities: [String: VolumeCapabilities] = [:]
    /// Volumes already asked what they allow.
    var asked: Set<String> = []
    /// Servers connected to lately, most recent first (addresses, never passwords).
    public internal(set) var recentServers: [String] = []
    /// What is under way ("connecting to smb://nas/photos", "mounting STICK"); Esc gives it up.
    public internal(set) var busyWith: String?
    /// Why the password is asked (again): shown beside the password prompt.
    public internal(set) var passwordNote = ""
    /// Password prompts shown for the connection under way (three at most).
    var passwordTries = 0
    /// When drives were last looked for (monotonic ns; the view looks every 2 s while open).
    var drivesScannedAt: Int64 = .min
}
