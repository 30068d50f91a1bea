/// Where a remote place is: `ssh://[user@]host[:port]/path` or scp's `[user@]host:path`, and the
/// command line that reaches it: the user's own `ssh` (or `QLBROWSE_SSH_COMMAND` / `ssh_command`,
/// run through the shell as git runs `GIT_SSH_COMMAND`), running `qlbrowse serve --stdio` there.
public struct RemoteAddress: Sendable, Equatable {
    /// `user@host` or `host`, as ssh takes it.
    public let destination: String
    public let host: String
    public let port: Int?
    /// The path on the remote: absolute, or relative to the home folder there (scp's form).
    public let path: String

    public init(destination: String, host: String, port: Int?, path: String) {
        self.destination = destination
        self.host = host
        self.port = port
        self.path = path
    }

    /// The address `text` names, or nil when it is not one (a local path). A host that starts
    /// with `-` is refused: ssh would read it as an option (`-oProxyCommand=…`).
    public static func parse(_ text: String) -> RemoteAddress? {
        if text.hasPrefix("ssh://") {
            let rest = text.dropFirst(6)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<slash]
            var path = String(rest[slash...])
            if path.hasPrefix("/~/") { path = String(path.dropFirst(3)) } else if path == "/~" || path.isEmpty { path = "" }
            var port: Int?
            if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
                guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else { return nil }
                port = number
                authority = authority[..<colon]
            }
            return make(destination: String(authority), port: port, path: path)
        }
        // scp's form: a colon before any slash.
        guard let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") else { return nil }
        return make(destination: String(text[..<colon]), port: nil, path: String(text[text.index(after: colon)...]))
    }

    private static func make(destination: String, port: Int?, path: String) -> RemoteAddress? {
        let bare = destination.hasPrefix("[") && destination.hasSuffix("]") ? String(destination.dropFirst().dropLast()) : destination
        let host = bare.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? bare
        guard !host.isEmpty, !bare.hasPrefix("-"), !bare.contains(where: { $0 == " " || $0.isNewline }) else { return nil }
        return RemoteAddress(destination: bare, host: host, port: port, path: path)
    }

    /// The place's name in messages: `host:path`.
    public var display: String { "\(host):\(path)" }
}

/// The command line that starts the remote side: `ssh [-p PORT] DESTINATION REMOTE serve --stdio`.
public struct RemoteCommand: Sendable, Equatable {
    /// Replaces `ssh` (`QLBROWSE_SSH_COMMAND`, `ssh_command`): a shell command line, given the
    /// arguments after it, as git's `GIT_SSH_COMMAND`. Nil: `ssh` itself, found on PATH.
    public var sshCommand: String?
    /// The program to run on the remote (`remote_command`, `QLBROWSE_REMOTE_COMMAND`): `qlbrowse`
    /// unless it is installed off the remote's PATH.
    public var remoteCommand: String

    public init(sshCommand: String? = nil, remoteCommand: String = "qlbrowse") {
        self.sshCommand = sshCommand.flatMap { $0.isEmpty ? nil : $0 }
        self.remoteCommand = remoteCommand.isEmpty ? "qlbrowse" : remoteCommand
    }

    /// The argv for `address`. A reconnection with plain `ssh` asks for no password (BatchMode):
    /// the terminal then belongs to the browser. `options` go to ssh after the command's own
    /// (`SSHKeepAlive`'s).
    public func arguments(for address: RemoteAddress, reconnecting: Bool = false, options: [String] = []) -> [String] {
        var sshArguments: [String] = options
        if reconnecting && sshCommand == nil { sshArguments += ["-o", "BatchMode=yes"] }
        if let port = address.port { sshArguments += ["-p", String(port)] }
        sshArguments += [address.destination, remoteCommand + " serve --stdio"]
        return wrapped(sshArguments)
    }

    /// The argv that starts the SFTP subsystem on `address` (`ssh -s DESTINATION sftp`): the
    /// fallback when the remote has no qlbrowse (`SFTPPlace`), through the same ssh command.
    public func sftpArguments(for address: RemoteAddress, reconnecting: Bool = false) -> [String] {
        var sshArguments: [String] = []
        if reconnecting && sshCommand == nil { sshArguments += ["-o", "BatchMode=yes"] }
        if let port = address.port { sshArguments += ["-p", String(port)] }
        return wrapped(sshArguments + ["-s", address.destination, "sftp"])
    }

    private func wrapped(_ sshArguments: [String]) -> [String] {
        guard let sshCommand else { return ["ssh"] + sshArguments }
        return ["/bin/sh", "-c", sshCommand + " \"$@\"", sshCommand] + sshArguments
    }

    /// The argv that asks the same ssh what its settings for `address` are (`ssh -G`: the
    /// user's config resolved, nothing connected).
    public func configQuery(for address: RemoteAddress) -> [String] {
        let arguments = ["-G"] + (address.port.map { ["-p", String($0)] } ?? []) + [address.destination]
        guard let sshCommand else { return ["ssh"] + arguments }
        return ["/bin/sh", "-c", sshCommand + " \"$@\"", sshCommand] + arguments
    }
}
