import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The browser quitting ends the link of every remote place it holds, an SFTP place as well as a
/// `RemotePlace` (#26: before, only the latter, so an SFTP place opened from the connect prompt
/// kept its ssh until the process ended). The "ssh" here is OpenSSH's sftp-server run directly
/// (`QLBROWSE_SSH_COMMAND`'s form, its ssh arguments dropped): the same process plumbing, no sshd.
@Suite struct PlaceRouterDisconnectTests {
    static let server = "/usr/lib/openssh/sftp-server"

    /// Whether `pid` still runs (a zombie counts as ended).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: server), "needs OpenSSH's sftp-server"))
    func disconnectingTheRemotesEndsAnSFTPPlacesLink() throws {
        let address = try #require(RemoteAddress.parse("ssh://127.0.0.1/tmp"))
        let place = try SFTPPlace(connectingTo: address, command: RemoteCommand(sshCommand: "exec \(Self.server) #"), connectSeconds: 10)
        let router = PlaceRouter(local: LocalPlace())
        router.add(place, under: PlacePath.prefix(destination: address.destination, port: address.port), label: "sftp:127.0.0.1")
        let pid = try #require(place.linkProcessID)
        #expect(isRunning(pid), "the link runs while the place is connected")
        router.disconnectRemotes()
        let deadline = Date().addingTimeInterval(5)
        while isRunning(pid) && Date() < deadline { usleep(20_000) }
        #expect(!isRunning(pid), "the SFTP place's link ended")
    }
}
