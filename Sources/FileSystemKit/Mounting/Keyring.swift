import SystemKit

/// Server passwords in the Secret Service keyring (GNOME Keyring, KWallet's service), through
/// `secret-tool` (libsecret-tools), kept only when the user says so: stored with the password
/// on secret-tool's standard input, looked up before the user is asked, and written nowhere
/// else (not in the recent servers, not in qlbrowse's files). Kept per server: scheme, user,
/// host, port and share, not the folder.
public struct Keyring: Sendable {
    public init() {}

    /// Whether `secret-tool` is installed (whether a keyring answers is its to say).
    public static var isAvailable: Bool { ProgramSearch.executable("secret-tool") != nil }

    /// The attributes a server's password is kept under: `qlbrowse-server smb://ann@nas/pub`.
    public static func attributes(_ address: ServerAddress) -> [String] {
        let server = ServerAddress(scheme: address.scheme, user: address.user, host: address.host, port: address.port, share: address.share, path: "")
        return ["qlbrowse-server", server.url]
    }

    /// `secret-tool store`'s arguments: a label and the attributes, no password.
    public static func storeArguments(_ address: ServerAddress) -> [String] {
        ["secret-tool", "store", "--label=qlbrowse: \(address.user.map { $0 + "@" } ?? "")\(address.host)"] + attributes(address)
    }

    /// `secret-tool lookup`'s arguments.
    public static func lookupArguments(_ address: ServerAddress) -> [String] { ["secret-tool", "lookup"] + attributes(address) }

    /// The password kept for `address`, nil when none is (or no keyring answers within 5 s).
    public func password(for address: ServerAddress) -> String? {
        guard Self.isAvailable else { return nil }
        let run = CommandRun.run(Self.lookupArguments(address), seconds: 5)
        guard run.succeeded, !run.output.isEmpty else { return nil }
        return run.output.hasSuffix("\n") ? String(run.output.dropLast()) : run.output
    }

    /// Keeps `password` for `address` (read by secret-tool from its standard input); a sentence
    /// saying why not when it was not kept.
    public func keep(_ password: String, for address: ServerAddress) -> String? {
        guard Self.isAvailable else { return "the password was not kept: secret-tool is not installed (Debian: apt install libsecret-tools)" }
        let run = CommandRun.run(Self.storeArguments(address), input: Array(password.utf8), seconds: 10)
        return run.succeeded ? nil : "the password was not kept: the keyring said \(run.said.isEmpty ? "no" : run.said)"
    }
}
