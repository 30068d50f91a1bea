import BrowserCore
import Dispatch
import FileSystemKit
import Synchronization
import SystemKit

/// Carries out `DrivesEffect`s off the UI thread: looks for drives not mounted, mounts, ejects
/// (refusing while anything holds files there), connects to servers (within 10 s; Esc cancels
/// through a `CancelSignal`). Answers come back through the inbox as `DrivesResult`s.
final class DriveRunner: Sendable {
    private let inbox: Inbox
    private let sshCommand: String?
    /// Scans and ejects, one at a time; connecting and mounting on a queue of their own, so a
    /// slow server does not hold up the list of drives.
    private let queue = DispatchQueue(label: "qlbrowse.drives")
    private let connecting = DispatchQueue(label: "qlbrowse.connect")
    private let cancel = Mutex<CancelSignal?>(nil)
    private let scanning = Atomic<Bool>(false)
    /// The password typed for the server just connected, held (in memory only) until the user
    /// says whether the keyring keeps it.
    private let unkept = Mutex<(url: String, password: String)?>(nil)

    /// The connect prompt's `ssh://…` and `host:path`: remote places in tabs (nil: mounts only).
    private let remotes: RemoteConnector?

    init(inbox: Inbox, sshCommand: String?, remotes: RemoteConnector? = nil) {
        self.inbox = inbox
        self.sshCommand = sshCommand
        self.remotes = remotes
    }

    func perform(_ effect: DrivesEffect) {
        let inbox = self.inbox
        let post: @Sendable (DrivesResult) -> Void = { inbox.post(.result(.drives($0))) }
        switch effect {
        case .scan:
            guard scanning.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
            queue.async { [self] in
                post(.found(DriveScanner.unmounted(), recentServers: ConnectionBook().recent()))
                scanning.store(false, ordering: .relaxed)
            }
        case .mount(let drive):
            let signal = fresh()
            connecting.async {
                switch Result(catching: { () throws(MountFailure) in try Mounters.preferred().mount(drive, cancel: signal) }) {
                case .success(let point): post(.mounted(drive, mountPoint: point))
                case .failure(let failure): post(.failed(failure, url: nil))
                }
            }
        case .eject(let volume, let ownHolds):
            queue.async {
                switch Result(catching: { () throws(MountFailure) in try Ejector.eject(volume, ownHolds: ownHolds, excluding: [], mounter: Mounters.preferred()) }) {
                case .success(let said): post(.ejected(mountPoint: volume.mountPoint, message: said))
                case .failure(let failure): post(.failed(failure, url: nil))
                }
            }
        case .connect(let url, _) where remotes != nil && RemoteConnector.handles(url):
            _ = fresh()
            connecting.async { [remotes] in
                switch remotes!.open(url) {
                case .success(let folder): post(.openedRemote(url: url, folder: folder))
                case .failure(let failure): post(.failed(failure, url: nil))
                }
            }
        case .connect(let url, let password):
            let signal = fresh(), ssh = sshCommand
            connecting.async { [self] in
                let outcome = Result { () throws(MountFailure) in
                    try ServerConnectors.connect(ServerAddress(parsing: url), password: password, keyring: Keyring(), sshCommand: ssh, cancel: signal)
                }
                switch outcome {
                case .success(let (connection, fromKeyring)):
                    let canKeep = password != nil && !fromKeyring
                    if let password, canKeep { unkept.withLock { $0 = (connection.address.url, password) } }
                    post(.connected(url: connection.address.url, folder: connection.folder, canKeep: canKeep))
                case .failure(let failure): post(.failed(failure, url: url))
                }
            }
        case .keepPassword(let url, let keep):
            guard let held = unkept.withLock({ held in defer { held = nil }; return held }), held.url == url else { return }
            guard keep else { return }
            queue.async {
                guard let address = try? ServerAddress(parsing: url), let why = Keyring().keep(held.password, for: address) else { return }
                post(.failed(MountFailure(.other, why), url: nil))
            }
        case .cancel:
            cancel.withLock { $0?.cancel() }
        }
    }

    /// Quitting: gives up a connection under way and waits (up to `seconds`) until it has
    /// cleaned up: sshfs mounts before its handshake, and a mount left behind by a killed sshfs
    /// would answer "Transport endpoint is not connected" to everyone.
    func finish(seconds: Double) {
        cancel.withLock { $0?.cancel() }
        let done = DispatchSemaphore(value: 0)
        connecting.async { done.signal() }
        _ = done.wait(timeout: .now() + seconds)
    }

    /// A new signal for the work about to start (the previous one is given up).
    private func fresh() -> CancelSignal {
        let signal = CancelSignal()
        cancel.withLock { $0?.cancel(); $0 = signal }
        return signal
    }
}
