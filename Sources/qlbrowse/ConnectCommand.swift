import ArgumentParser
import FileSystemKit
import SystemKit

/// `qlbrowse connect URL`: the volumes view's `C` for scripts: mounts an SMB share or an SFTP
/// folder as the user and prints the folder to open. The password is read from standard input
/// (`--password-stdin`) or asked on the terminal without echo, up to three times; never from
/// the command line.
struct ConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Connect to a server (smb://[user@]host[:port]/share[/path], sftp://[user@]host[:port][/path]) and print the folder to open.",
        discussion: """
        Where your session runs GVfs (a session bus and gvfsd-fuse's folder under \
        $XDG_RUNTIME_DIR/gvfs), the server is mounted with gio mount, the password given on its \
        standard input, and the folder under $XDG_RUNTIME_DIR/gvfs is printed. Otherwise SFTP goes \
        through sshfs with your own ssh (QLBROWSE_SSH_COMMAND or ssh_command in config.toml \
        replace it, as GIT_SSH_COMMAND does for git); without a password ssh uses your keys and \
        agent only. SMB goes through smbnetfs, with the password in a private file that lives as \
        long as the connection. A password kept in the Secret Service keyring (secret-tool) is \
        tried before one is asked; after a password was typed on the terminal you are asked \
        whether to keep it there (--keep-password keeps it without asking). A server that does \
        not answer within --timeout seconds is given up. The address (never the password) is \
        added to the recent servers the browser offers.
        """)

    @Argument(help: "The server's address.") var url: String
    @Flag(help: "Read the password from standard input (its first line).") var passwordStdin = false
    @Flag(help: "Keep the password in the Secret Service keyring (secret-tool) once connected.") var keepPassword = false
    @Option(help: "Seconds to wait for the server.") var timeout: Double = 10

    func run() throws {
        let address: ServerAddress
        switch Result(catching: { () throws(MountFailure) in try ServerAddress(parsing: url) }) {
        case .success(let parsed): address = parsed
        case .failure(let failure): throw ValidationError(failure.message)
        }
        var password: String? = passwordStdin ? PasswordReader.firstLine() : nil
        let ssh = ProcessEnvironment.variable("QLBROWSE_SSH_COMMAND") ?? UserConfig.load().values["ssh_command"]
        for attempt in 1...3 {
            let outcome = Result { () throws(MountFailure) in
                try ServerConnectors.connect(address, password: password, keyring: Keyring(), sshCommand: ssh, seconds: timeout)
            }
            switch outcome {
            case .success(let (connection, fromKeyring)):
                StandardStream.write(connection.folder + "\n", to: 1)
                if let password, !fromKeyring { offerToKeep(password, for: address) }
                return
            case .failure(let failure):
                let asks = failure.kind == .needsPassword || failure.kind == .wrongPassword
                guard asks, !passwordStdin, attempt < 3, PasswordReader.isTerminal else {
                    if failure.kind == .needsPassword && !passwordStdin { throw RuntimeError(failure.message + ": give it with --password-stdin or on a terminal") }
                    throw RuntimeError(failure.message)
                }
                StandardStream.write("qlbrowse: \(failure.message)\n", to: 2)
                password = PasswordReader.ask("Password for \(address.user.map { $0 + "@" } ?? "")\(address.host): ")
            }
        }
    }

    /// Keeps the password in the keyring with --keep-password, or when asked on the terminal and
    /// the answer is y; says so on standard error when it could not be kept.
    private func offerToKeep(_ password: String, for address: ServerAddress) {
        var keep = keepPassword
        if !keep, !passwordStdin, PasswordReader.isTerminal, Keyring.isAvailable {
            StandardStream.write("keep the password in the keyring? (y/N) ", to: 2)
            keep = ["y", "yes"].contains(PasswordReader.firstLine().lowercased())
        }
        guard keep else { return }
        if let why = Keyring().keep(password, for: address) { StandardStream.write("qlbrowse: \(why)\n", to: 2) }
    }
}
