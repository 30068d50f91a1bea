import Places
import SystemKit

/// `qlbrowse ssh://[user@]host[:port]/path` and `qlbrowse host:path`: the browser on a
/// `RemotePlace`, connected before the terminal is taken (ssh's prompts and warnings are seen).
enum RemoteEntry {
    /// The remote place `path` names and the folder to open there, or nil when `path` is a
    /// local one (a local item by that name wins over scp's form, as for `./a:b`).
    static func open(_ path: String?, config: UserConfig) throws -> (place: RemotePlace, folder: String)? {
        guard let path, let address = RemoteAddress.parse(path) else { return nil }
        let local = try? PlaceCall.wait { () throws(FileSystemError) in try await LocalPlace().item(at: path) }
        if local != nil { return nil }
        do throws(FileSystemError) {
            let place = try connect(address, config: config)
            let item = try PlaceCall.wait { () throws(FileSystemError) in try await place.resolve(address.path) }
            if item.isDirectory { return (place, item.path) }
            let parent = item.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            return (place, parent.isEmpty ? "/" : parent)
        } catch {
            throw RuntimeError("cannot open \(TerminalText.escaped(path)): \(error.message)")
        }
    }

    /// `QLBROWSE_SSH_COMMAND` / `ssh_command` and `QLBROWSE_REMOTE_COMMAND` / `remote_command`.
    static func command(config: UserConfig) -> RemoteCommand {
        RemoteCommand(sshCommand: ProcessEnvironment.variable("QLBROWSE_SSH_COMMAND") ?? config.values["ssh_command"],
                      remoteCommand: ProcessEnvironment.variable("QLBROWSE_REMOTE_COMMAND") ?? config.values["remote_command"] ?? "qlbrowse")
    }

    /// A remote place on `address`, connected (blocking: ssh's prompts are seen).
    static func connect(_ address: RemoteAddress, config: UserConfig) throws(FileSystemError) -> RemotePlace {
        try RemotePlace(connectingTo: address, command: command(config: config), pictureCache: .user)
    }
}
