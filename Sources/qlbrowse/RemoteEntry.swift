import Places
import SystemKit

/// `qlbrowse ssh://[user@]host[:port]/path` and `qlbrowse host:path`: the browser on a
/// `RemotePlace`, connected before the terminal is taken (ssh's prompts and warnings are seen);
/// on an `SFTPPlace` when the remote has no qlbrowse to run (or `--sftp`, `ssh_mode = "sftp"`).
enum RemoteEntry {
    /// A remote place opened for the browser: the place, the folder to show, and the status
    /// line's words for it ("ssh:host" with qlbrowse on the remote, "sftp:host" without).
    struct Opened {
        let place: any Place
        let address: RemoteAddress
        let folder: String
        let label: String
        let disconnect: @Sendable () -> Void
        /// The SFTP place, which makes its pictures with the browser's workers (set once made).
        let sftp: SFTPPlace?
    }

    /// The remote place `path` names and the folder to open there, or nil when `path` is a
    /// local one (a local item by that name wins over scp's form, as for `./a:b`).
    static func open(_ path: String?, config: UserConfig, forcesSFTP: Bool = false) throws -> Opened? {
        guard let path, let address = RemoteAddress.parse(path) else { return nil }
        let local = try? PlaceCall.wait { () throws(FileSystemError) in try await LocalPlace().item(at: path) }
        if local != nil { return nil }
        do throws(FileSystemError) {
            let opened = try RemoteOpening.connect(address, command: command(config: config), forcesSFTP: forcesSFTP || sftpConfigured(config)) { said in
                StandardStream.write("qlbrowse: \(said)\n", to: 2)
            }
            let place = opened.place
            return Opened(place: place, address: address, folder: try opened.folder(for: address.path), label: opened.label,
                          disconnect: { place.disconnect() }, sftp: opened.sftp)
        } catch {
            throw RuntimeError("cannot open \(TerminalText.escaped(path)): \(error.message)")
        }
    }

    /// `ssh_mode = "sftp"` in config.toml (or `QLBROWSE_SSH_MODE=sftp`): always SFTP.
    static func sftpConfigured(_ config: UserConfig) -> Bool {
        (ProcessEnvironment.variable("QLBROWSE_SSH_MODE") ?? config.values["ssh_mode"])?.lowercased() == "sftp"
    }

    /// `QLBROWSE_SSH_COMMAND` / `ssh_command` and `QLBROWSE_REMOTE_COMMAND` / `remote_command`.
    static func command(config: UserConfig) -> RemoteCommand {
        RemoteCommand(sshCommand: ProcessEnvironment.variable("QLBROWSE_SSH_COMMAND") ?? config.values["ssh_command"],
                      remoteCommand: ProcessEnvironment.variable("QLBROWSE_REMOTE_COMMAND") ?? config.values["remote_command"] ?? "qlbrowse")
    }

    /// A place connected for `files copy`/`move`: how a path there is resolved (a relative one
    /// is in the home folder), and how to end it. `qlbrowse serve` when the remote has it, plain SFTP otherwise (or when asked),
    /// as the browser chooses.
    struct Connected {
        let place: any Place
        let resolve: @Sendable (String) async throws(FileSystemError) -> PlaceItem
        let disconnect: @Sendable () -> Void
    }

    static func connectAny(_ address: RemoteAddress, config: UserConfig) throws(FileSystemError) -> Connected {
        let opened = try RemoteOpening.connect(address, command: command(config: config), forcesSFTP: sftpConfigured(config)) { said in
            StandardStream.write("qlbrowse: \(said)\n", to: 2)
        }
        let place = opened.place
        return Connected(place: place, resolve: { path throws(FileSystemError) in try await place.resolve(path) }, disconnect: { place.disconnect() })
    }
}
