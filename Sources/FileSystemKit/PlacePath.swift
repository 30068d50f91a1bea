/// Where a path the browser carries is: this computer's paths are absolute (`/…`); a folder on
/// another machine is its address and its path there, `ssh://[user@]host[:port]` + `/abs/path`
/// (the remote's root is the bare prefix, so joining a name, taking the parent and showing the
/// title work on it as on a local path). Such a path can never be a local one (those start with
/// `/`), and a local path that merely contains `ssh://` (`/home/me/ssh://x`) stays local.
///
/// Everything here works on the string's scalars, never on characters: a name is bytes
/// (`FileSystemBytes`), and a `/` followed by a combining scalar is still a `/`.
public enum PlacePath {
    /// The scheme every remote prefix starts with.
    public static let scheme = "ssh://"

    /// Whether `path` is on this computer (not under a remote prefix).
    public static func isLocal(_ path: String) -> Bool {
        !path.utf8.starts(with: scheme.utf8)
    }

    /// The prefix of a remote place: `ssh://` + `user@host` (an IPv6 host in brackets) + `:port`
    /// when one is given.
    public static func prefix(destination: String, port: Int?) -> String {
        var authority = destination
        if destination.contains(":"), !destination.hasPrefix("[") {
            // `user@::1` → `user@[::1]`, so the port's colon is the last one.
            let at = destination.lastIndex(of: "@").map { destination.index(after: $0) } ?? destination.startIndex
            authority = String(destination[..<at]) + "[" + String(destination[at...]) + "]"
        }
        return scheme + authority + (port.map { ":\($0)" } ?? "")
    }

    /// `path` cut into its remote prefix and its path there (`/` for the bare prefix); nil for
    /// a local path.
    public static func split(_ path: String) -> (prefix: String, path: String)? {
        guard !isLocal(path) else { return nil }
        let scalars = path.unicodeScalars
        let afterScheme = scalars.index(scalars.startIndex, offsetBy: scheme.unicodeScalars.count)
        guard let slash = scalars[afterScheme...].firstIndex(of: "/") else { return (path, "/") }
        return (String(scalars[..<slash]), String(scalars[slash...]))
    }

    /// The browser's path for `inner` (a path on the place under `prefix`; nil for this computer).
    public static func join(_ prefix: String?, _ inner: String) -> String {
        guard let prefix else { return inner }
        return inner == "/" || inner.isEmpty ? prefix : prefix + inner
    }

    /// Whether `path` is the root of a remote place (no parent to go up to).
    public static func isRoot(_ path: String) -> Bool {
        split(path)?.path == "/"
    }

    /// The host named by a remote prefix (`nas` of `ssh://me@nas:2222`); nil for a local path.
    public static func host(_ path: String) -> String? {
        guard let prefix = split(path)?.prefix else { return nil }
        var authority = Substring(prefix.dropFirst(scheme.count))
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
        return String(authority)
    }
}
