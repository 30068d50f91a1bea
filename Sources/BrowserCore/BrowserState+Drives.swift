import FileSystemKit
import SystemKit

/// Drives not mounted in the volumes view (Enter mounts), `E` ejects, `C` connects to a server
/// with a password asked masked, up to three times (issue 25). The work is the shell's
/// (`DrivesEffect`); what it came to arrives as `DrivesResult`.
extension BrowserState {
    /// Every 2 s while the volumes view is open: drives plugged in appear without a key.
    static let driveScanInterval: Int64 = 2_000_000_000
    /// Password prompts for one connection.
    static let passwordTries = 3

    /// Drives to look for now: the volumes view is open and the last look is old.
    mutating func drivesTick() -> [BrowserEffect] {
        guard overlay == .volumes, volumeState.drivesScannedAt == .min || now - volumeState.drivesScannedAt >= Self.driveScanInterval else { return [] }
        volumeState.drivesScannedAt = now
        return [.drives(.scan)]
    }

    /// The drive under the volumes view's cursor, when it is on a drive not mounted.
    public var selectedDrive: Drive? {
        let index = volumeCursor - volumes.count
        return volumeState.drives.indices.contains(index) ? volumeState.drives[index] : nil
    }

    /// Enter on a drive not mounted: mount it (then it opens).
    mutating func mountSelectedDrive() -> [BrowserEffect] {
        guard let drive = selectedDrive, volumeState.busyWith == nil else { return [] }
        volumeState.busyWith = "mounting \(drive.name)"
        message = "mounting \(drive.name)…"
        return [.drives(.mount(drive))]
    }

    mutating func reduceDrives(_ action: VolumesAction) -> [BrowserEffect] {
        switch action {
        case .eject:
            guard volumes.indices.contains(volumeCursor) else {
                if let drive = selectedDrive { message = "\(drive.name) is not mounted" }
                return []
            }
            let volume = volumes[volumeCursor].volume
            guard volume.mountPoint != "/" else { message = "the root file system is not ejected"; return [] }
            message = "ejecting \(volume.label)…"
            return [.drives(.eject(volume, ownHolds: ownHolds(on: volume)))]
        case .connect:
            let last = volumeState.recentServers.first ?? ""
            mode = .prompt(TextPrompt(purpose: .connect, text: last, selection: last.isEmpty ? nil : 0..<last.count))
        case .recentServer(let step):
            guard case .prompt(let typing) = mode, typing.purpose == .connect, !volumeState.recentServers.isEmpty else { return [] }
            let list = volumeState.recentServers
            let index = ((list.firstIndex(of: typing.text) ?? (step > 0 ? -1 : list.count)) + step + list.count) % list.count
            mode = .prompt(TextPrompt(purpose: .connect, text: list[index]))
        case .cancelConnect:
            guard let busy = volumeState.busyWith else { return [] }
            message = "\(busy): cancelled"
            volumeState.busyWith = nil
            return [.drives(.cancel)]
        case .toggle, .abandonWaiting: break
        }
        return []
    }

    /// Enter in the address or password prompt; nil for the other prompts.
    mutating func acceptServerPrompt(_ typing: TextPrompt) -> [BrowserEffect]? {
        switch typing.purpose {
        case .connect:
            let url = typing.text
            guard !url.isEmpty else { message = "no address given"; return [] }
            volumeState.passwordTries = 0
            return connect(url, password: nil)
        case .password(let url):
            return connect(url, password: typing.text)
        case .rename, .create, .note: return nil
        }
    }

    private mutating func connect(_ url: String, password: String?) -> [BrowserEffect] {
        volumeState.busyWith = "connecting to \(url)"
        message = "connecting to \(url)… (Esc gives up)"
        return [.drives(.connect(url: url, password: password))]
    }

    mutating func reduceDrives(_ result: DrivesResult) -> [BrowserEffect] {
        switch result {
        case .found(let drives, let recent):
            let selected = selectedDrive
            volumeState.drives = drives
            volumeState.recentServers = recent
            if let selected, let index = drives.firstIndex(of: selected) { volumeCursor = volumes.count + index }
            volumeCursor = min(volumeCursor, max(0, volumes.count + drives.count - 1))
        case .mounted(let drive, let mountPoint):
            volumeState.busyWith = nil
            volumeState.drives.removeAll { $0 == drive }
            message = "\(drive.name) mounted at \(mountPoint)"
            mode = .browsing
            return enter(mountPoint, select: nil)
        case .connected(let url, let folder, let canKeep):
            guard volumeState.busyWith != nil else { return canKeep ? [.drives(.keepPassword(url: url, keep: false))] : [] }  // given up with Esc meanwhile
            volumeState.busyWith = nil
            volumeState.recentServers = [url] + volumeState.recentServers.filter { $0 != url }
            mode = .browsing
            let effects = enter(folder, select: nil)
            message = "connected to \(url)"
            if canKeep {
                mode = .awaitingKey(.keepPassword(url: url))
                message = "connected to \(url); keep the password in the keyring? (y/N)"
            }
            return effects
        case .openedRemote(let url, let folder):
            guard volumeState.busyWith != nil else { return [] }  // given up with Esc meanwhile
            volumeState.busyWith = nil
            volumeState.recentServers = [url] + volumeState.recentServers.filter { $0 != url }
            mode = .browsing
            _ = reduce(TabAction.new)
            let effects = enter(folder, select: nil)
            message = "connected to \(url)" + (tabs.isEmpty ? "" : " (tab \(currentTab + 1) of \(tabs.count))")
            return effects
        case .ejected(let mountPoint, let said):
            message = said
            if let volume = currentVolume, volume.mountPoint == mountPoint {
                let parent = mountPoint.split(separator: "/").dropLast().map(String.init).joined(separator: "/")
                let effects = enter(parent.isEmpty ? "/" : "/" + parent, select: nil)
                message = said
                return effects
            }
        case .failed(let failure, let url):
            guard volumeState.busyWith != nil || failure.kind == .busy || url == nil else { return [] }
            volumeState.busyWith = nil
            let asks = failure.kind == .needsPassword || failure.kind == .wrongPassword
            if asks, let url, volumeState.passwordTries < Self.passwordTries {
                volumeState.passwordTries += 1
                let left = Self.passwordTries - volumeState.passwordTries + 1
                // Short: it shares the status line with the prompt.
                volumeState.passwordNote = failure.kind == .wrongPassword ? "wrong password (\(left) more \(left == 1 ? "try" : "tries"))" : ""
                message = failure.message
                mode = .prompt(TextPrompt(purpose: .password(url)))
                return []
            }
            if failure.kind != .cancelled { message = failure.message }
        }
        return []
    }

    /// The answer to "keep the password in the keyring?": y (or Y) keeps it, anything else not.
    mutating func answerKeepPassword(_ url: String, key: String?) -> [BrowserEffect] {
        mode = .browsing
        let keep = key == "y" || key == "Y"
        message = keep ? "keeping the password for \(url) in the keyring" : "the password was not kept"
        return [.drives(.keepPassword(url: url, keep: keep))]
    }

    /// What the browser itself does on `volume`, in words, for the eject's refusal.
    func ownHolds(on volume: Volume) -> [String] {
        jobs.filter { $0.phase.isActive && volume.contains($0.folder) }.map { job in
            switch job.kind {
            case .thumbnails: return "thumbnailing \(Self.lastComponent(job.folder))"
            case .file(let kind): return "a \(kind.rawValue) of \(job.total.map { $0 == 1 ? "1 item" : "\($0) items" } ?? "files") into \(Self.lastComponent(job.folder))"
            }
        }
    }
}
