import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The XDG base directories data files are looked up in, most important first:
/// `$XDG_DATA_HOME` (default `~/.local/share`), then each of `$XDG_DATA_DIRS`
/// (default `/usr/local/share:/usr/share`).
///
/// A value rather than a global lookup so that tests (which run in parallel) can point the
/// MIME database and the thumbnailer loader at a temporary folder without touching the
/// process environment.
public struct XDGDataDirectories: Sendable, Equatable {
    /// The user's data directory; files here override the system's.
    public var dataHome: String
    /// The system data directories, in order of preference.
    public var dataDirectories: [String]

    public init(dataHome: String, dataDirectories: [String]) {
        self.dataHome = dataHome
        self.dataDirectories = dataDirectories
    }

    /// Every directory, most important first, without duplicates.
    public var all: [String] {
        var seen = Set<String>()
        return ([dataHome] + dataDirectories).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// `subfolder` inside every directory (`mime`, `thumbnailers`), most important first.
    public func paths(_ subfolder: String) -> [String] {
        all.map { $0.hasSuffix("/") ? $0 + subfolder : $0 + "/" + subfolder }
    }

    /// The directories the process environment names, with the specification's defaults.
    public static func fromEnvironment(_ environment: ProcessEnvironment = .current) -> XDGDataDirectories {
        XDGDataDirectories(dataHome: environment.dataHome, dataDirectories: environment.dataDirectories)
    }
}
