import FileSystemKit
import Places
import SystemKit
import ThumbnailKit

/// The connect prompt's `ssh://[user@]host[:port]/path` and scp's `[user@]host:path`: a remote
/// place reached through the user's own ssh (as `qlbrowse ssh://…` does), added to the browser's
/// router under its prefix, so its folder opens in a tab beside the local ones. Several hosts
/// at once; a host already connected is not connected again.
///
/// The terminal is the browser's, so ssh asks nothing here (`BatchMode`): a host that wants a
/// password or a passphrase is refused with a sentence saying that keys and the agent are the
/// way (or `qlbrowse ssh://…` from the shell, where ssh may ask). `smb://` and `sftp://` stay
/// mounts (`ServerConnectors`).
struct RemoteConnector: Sendable {
    let router: PlaceRouter
    let command: RemoteCommand
    /// SFTP even where the remote has qlbrowse (`--sftp`, `ssh_mode = "sftp"`).
    let forcesSFTP: Bool
    /// The browser's workers, which make an SFTP place's pictures from its cached copies.
    let sftpPictures: ThumbnailGenerator?

    init(router: PlaceRouter, sshCommand: String?, remoteCommand: String?, forcesSFTP: Bool = false, sftpPictures: ThumbnailGenerator? = nil) {
        self.router = router
        self.command = RemoteCommand(sshCommand: sshCommand, remoteCommand: remoteCommand ?? "qlbrowse")
        self.forcesSFTP = forcesSFTP
        self.sftpPictures = sftpPictures
    }

    /// Whether `text` is this connector's (`ssh://…` or `host:path`), not a mount's.
    static func handles(_ text: String) -> Bool {
        if text.hasPrefix(PlacePath.scheme) { return RemoteAddress.parse(text) != nil }
        return !text.contains("://") && RemoteAddress.parse(text) != nil
    }

    /// Connects to what `text` names (blocking: call it off the UI thread) and returns the
    /// browser's path of the folder to open there (a file's folder for a file); the failure in
    /// words otherwise.
    func open(_ text: String) -> Result<String, MountFailure> {
        guard let address = RemoteAddress.parse(text) else { return .failure(MountFailure(.other, "\(TerminalText.escaped(text)) is not an ssh address")) }
        let prefix = PlacePath.prefix(destination: address.destination, port: address.port)
        do throws(FileSystemError) {
            let place: any RemoteLink
            if let known = router.place(under: prefix) as? any RemoteLink {
                place = known
            } else {
                // The command line's choice (RemoteEntry): qlbrowse serve, else SFTP.
                let opened = try RemoteOpening.connect(address, command: command, forcesSFTP: forcesSFTP, asks: false, connectSeconds: 20)
                opened.sftp?.useThumbnails(sftpPictures)
                router.add(opened.place, under: prefix, label: opened.label)
                place = opened.place
            }
            let folder = try RemoteOpening.folder(of: place, for: address.path)
            return .success(PlacePath.join(prefix, folder))
        } catch {
            return .failure(MountFailure(.other, Self.explained(error, host: address.host)))
        }
    }

    /// A failure in words; ssh's refusal of a login that needs a password or passphrase names
    /// the way that works.
    static func explained(_ error: FileSystemError, host: String) -> String {
        let said = error.message
        guard said.contains("Permission denied") || said.contains("passphrase") || said.contains("password") else {
            return "cannot open \(TerminalText.escaped(host)): " + said
        }
        return "cannot open \(TerminalText.escaped(host)): ssh was refused without a key it could use, and the browser cannot type a "
            + "password or passphrase for it: use a key with ssh-agent (ssh-add), or start qlbrowse ssh://… from the shell (\(said))"
    }
}
