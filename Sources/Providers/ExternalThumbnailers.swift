import SystemKit
import ThumbnailKit
/// The `.thumbnailer` files installed for this user: `$XDG_DATA_HOME/thumbnailers` first, then each
/// `$XDG_DATA_DIRS/*/thumbnailers`. A file name found in a more important folder hides the same
/// name further down (that is how a user overrides or disables a system thumbnailer), and an
/// entry whose `TryExec` program is not installed is skipped, as the specification asks
/// (`DesktopEntryFolders`, shared with `.previewer` files).
///
/// Types are matched exactly (after alias resolution): a thumbnailer for `image/png` is not asked
/// about `image/apng`, even though shared-mime-info calls that a subclass of PNG. A thumbnailer
/// states what it can read; a subclass may well be something it cannot.
public struct ExternalThumbnailers: Sendable {
    /// Usable entries, most important folder first, then by file name.
    public let entries: [ThumbnailerFile]
    /// Entries ignored because their `TryExec` program is missing.
    public let skipped: [ThumbnailerFile]
    /// Canonical MIME type → indices into `entries`.
    private let byType: [String: [Int]]
    private let mimeDatabase: SharedMimeDatabase
    private let searchPath: String

    /// Seconds one external command may run.
    public var deadline: Double
    public var sandbox: ThumbnailerSandbox

    /// Loads from `directories`; `mimeDatabase` resolves aliases (by default the same folders'
    /// shared-mime-info); `searchPath` is where `TryExec` and `Exec` programs are looked for.
    public init(directories: XDGDataDirectories = .fromEnvironment(), mimeDatabase: SharedMimeDatabase? = nil,
                searchPath: String? = nil, deadline: Double = 10, sandbox: ThumbnailerSandbox = .automatic) {
        let searchPath = searchPath ?? ProgramSearch.processSearchPath
        let database = mimeDatabase ?? SharedMimeDatabase.loaded(from: directories)
        let (usable, skipped) = DesktopEntryFolders.load(directories.paths("thumbnailers"), suffix: ".thumbnailer", searchPath: searchPath,
                                                         parse: ThumbnailerFile.parse, tryExec: \.tryExec)
        let byType = DesktopEntryFolders.index(usable.map(\.mimeTypes), database: database)
        self.entries = usable
        self.skipped = skipped
        self.byType = byType
        self.mimeDatabase = database
        self.searchPath = searchPath
        self.deadline = deadline
        self.sandbox = sandbox
    }

    /// The entries whose `MimeType` list names exactly `type` (or an alias of it), in order.
    public func thumbnailers(for type: ContentType) -> [ThumbnailerFile] {
        (byType[mimeDatabase.canonical(type.identifier)] ?? []).map { entries[$0] }
    }

    /// A provider for each entry serving `type`.
    public func providers(for type: ContentType) -> [ExternalProvider] {
        thumbnailers(for: type).map { ExternalProvider($0, deadline: deadline, sandbox: sandbox, searchPath: searchPath) }
    }

    /// Every MIME type some entry serves, as the entries list them, with the entry.
    public var servedTypes: [(type: String, thumbnailer: ThumbnailerFile)] {
        entries.flatMap { entry in entry.mimeTypes.map { (type: $0, thumbnailer: entry) } }
    }
}
