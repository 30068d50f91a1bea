import ArgumentParser
import FileSystemKit
import SystemKit

/// `qlbrowse disconnect`: unmounts a server connected with `connect` or `C`.
struct DisconnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disconnect", abstract: "Disconnect a server: by the address it was connected with, or its mount point. Refuses while files there are in use.",
        discussion: "A server connected through GVfs is disconnected with gio mount -u; one mounted by qlbrowse's own FUSE mounts (smbnetfs, sshfs) with fusermount3.")

    @Argument(help: "The server's address or the mount point.") var server: String

    func run() throws {
        guard let volume = Ejector.volume(named: server) else { throw RuntimeError("no connected server is called \(TerminalText.escaped(server))") }
        switch Result(catching: { () throws(MountFailure) in try Ejector.eject(volume, mounter: Mounters.preferred()) }) {
        case .success(let said): StandardStream.write(said + "\n", to: 1)
        case .failure(let failure): throw RuntimeError(failure.message)
        }
    }
}
