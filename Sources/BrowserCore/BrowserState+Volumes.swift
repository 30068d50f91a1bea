import FileSystemKit
import SystemKit

/// Volumes coming and going: a job on a volume that left stops with a report, and the user is
/// taken off a volume that died under the current folder.
extension BrowserState {
    /// What the volume monitor, the jobs and the probes report about volumes.
    mutating func reduceVolumeResult(_ result: BackgroundResult) -> [BrowserEffect] {
        switch result {
        case .volumesChanged(let statuses): return volumesChanged(statuses)
        case .volumeLost(let mountPoint):
            guard let volume = currentVolume, volume.mountPoint == mountPoint, mountPoint != "/" else { return [] }
            return leave(vanished: volume)
        case .volumeGone(let label, let fallback):
            let effects = enter(fallback, select: nil)
            previousNavigation = nil  // nothing to go back to on a volume that is gone
            banner = "\(label) was disconnected"
            mode = .browsing
            return effects
        case .capabilitiesFound(let mountPoint, let found): capabilities[mountPoint] = found
        default: break
        }
        return []
    }

    mutating func volumesChanged(_ statuses: [VolumeMonitor.Status]) -> [BrowserEffect] {
        let before = currentVolume, volumesBefore = volumes.map(\.volume)
        let selected = volumes.indices.contains(volumeCursor) ? volumes[volumeCursor].volume.mountPoint : nil, drive = selectedDrive
        volumes = statuses
        // The cursor stays on what it was on while other mounts come and go.
        if let selected, let index = statuses.firstIndex(where: { $0.volume.mountPoint == selected }) {
            volumeCursor = index
        } else if let drive, let index = volumeState.drives.firstIndex(of: drive) {
            volumeCursor = statuses.count + index
        }
        volumeCursor = min(volumeCursor, max(0, statuses.count + volumeState.drives.count - 1))
        // A volume that is no longer listed (unplugged, unmounted), or still listed but dead
        // underneath (FUSE daemon or server gone).
        func isGone(_ volume: Volume) -> Bool {
            volume.mountPoint != "/" && !statuses.contains { $0.volume.mountPoint == volume.mountPoint && !$0.isDisconnected }
        }
        var effects = stopJobs { job in Volume.containing(job.folder, in: volumesBefore).flatMap { isGone($0) ? $0 : nil } }
        if let before, isGone(before) { effects += leave(vanished: before).filter { !effects.contains($0) } }
        return effects
    }

    /// Stops every running job for which `volumeGone` names a volume that went away.
    mutating func stopJobs(where volumeGone: (JobStatus) -> Volume?) -> [BrowserEffect] {
        jobs.filter(\.phase.isActive).compactMap { job in
            volumeGone(job).map { .stopJob(id: job.id, reason: "\($0.label) was disconnected") }
        }
    }
}
