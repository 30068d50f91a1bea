import SystemKit

/// A place whose link to another machine is ended when the browser quits (`RemotePlace`,
/// `SFTPPlace`): whatever connected it, nothing of ours is left running there.
public protocol RemoteLink: Place {
    /// Ends the link: ssh exits, and the remote side with it.
    func disconnect()
    /// The remote's absolute path for `path` (relative ones are in the home folder there) and
    /// what is there.
    func resolve(_ path: String) async throws(FileSystemError) -> PlaceItem
}

extension RemotePlace: RemoteLink {}
extension SFTPPlace: RemoteLink {}

/// A remote place connected for the browser, and the one choice of how: over the remote's
/// `qlbrowse serve` first, over plain SFTP when the remote's shell did not find qlbrowse (exit
/// 127) or when SFTP is asked for. The command line (`qlbrowse ssh://…`) and the browser's
/// connect prompt both open remotes through it, so both fall back alike and both label the
/// place alike: "ssh:HOST" with qlbrowse there, "sftp:HOST" without.
public struct RemoteOpening: Sendable {
    /// The place connected.
    public let place: any RemoteLink
    /// The status line's words for it ("ssh:nas", "sftp:nas").
    public let label: String
    /// The SFTP place when that is the mode (it makes its pictures with the browser's workers).
    public let sftp: SFTPPlace?

    /// Connects to `address` (blocking: never on a cooperative thread). `forcesSFTP` skips
    /// `qlbrowse serve`; `asks` false keeps ssh from asking anything (`BatchMode`: the
    /// browser's prompt, whose terminal is the browser's); `fellBack` hears the sentence saying
    /// that the remote has no qlbrowse and SFTP is used instead. A host key refused, a version
    /// mismatch or a dead host never fall back: they are not "no qlbrowse".
    public static func connect(_ address: RemoteAddress, command: RemoteCommand, forcesSFTP: Bool, asks: Bool = true, connectSeconds: Double = 60,
                               fellBack: (String) -> Void = { _ in }) throws(FileSystemError) -> RemoteOpening {
        let host = TerminalText.escaped(address.host)
        if !forcesSFTP {
            do throws(FileSystemError) {
                let place = try RemotePlace(connectingTo: address, command: command, connectSeconds: connectSeconds, pictureCache: .user, asks: asks)
                return RemoteOpening(place: place, label: "ssh:" + host, sftp: nil)
            } catch where RemotePlace.lacksRemoteCommand(error, host: address.host) {
                fellBack("no qlbrowse on \(host): browsing it over plain SFTP (pictures made here)")
            }
        }
        let place = try SFTPPlace(connectingTo: address, command: command, connectSeconds: connectSeconds, fileCache: .user, asks: asks)
        return RemoteOpening(place: place, label: "sftp:" + host, sftp: place)
    }

    /// The place's own path for what the address named: itself for a folder, the folder a
    /// file is in for a file.
    public func folder(for path: String) throws(FileSystemError) -> String {
        try Self.folder(of: place, for: path)
    }

    /// `place`'s own path of the folder `path` names (itself, or a file's folder).
    public static func folder(of place: any RemoteLink, for path: String) throws(FileSystemError) -> String {
        let item = try PlaceCall.wait { () throws(FileSystemError) in try await place.resolve(path) }
        if item.isDirectory { return item.path }
        let parent = item.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return parent.isEmpty ? "/" : parent
    }
}
