/// The XDG base directories (freedesktop.org basedir specification 0.8): each variable counts
/// only when it is an absolute path, else its default under `$HOME`.
extension ProcessEnvironment {
    /// `$HOME`, else "/".
    public var home: String { self["HOME"] ?? "/" }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public var cacheHome: String { absolute("XDG_CACHE_HOME") ?? underHome(".cache") }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public var configHome: String { absolute("XDG_CONFIG_HOME") ?? underHome(".config") }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public var stateHome: String { absolute("XDG_STATE_HOME") ?? underHome(".local/state") }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public var dataHome: String { absolute("XDG_DATA_HOME") ?? underHome(".local/share") }

    /// `$XDG_DATA_DIRS` (its absolute entries), else `/usr/local/share` and `/usr/share`.
    public var dataDirectories: [String] {
        let listed = (self["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return listed.isEmpty ? ["/usr/local/share", "/usr/share"] : listed
    }

    /// `$XDG_RUNTIME_DIR`; the specification gives no default (nil: the caller picks a fallback).
    public var runtimeDirectory: String? { absolute("XDG_RUNTIME_DIR") }

    private func absolute(_ name: String) -> String? { self[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }

    private func underHome(_ relative: String) -> String { (home.hasSuffix("/") ? home : home + "/") + relative }
}
