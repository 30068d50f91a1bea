import SystemKit
import ThumbnailKit

/// The `.previewer` files installed for this user: `$XDG_CONFIG_HOME/qlbrowse/previewers` first,
/// then `qlbrowse/previewers` in each of `$XDG_DATA_DIRS`. As for `.thumbnailer` files
/// (`DesktopEntryFolders`), a file name in a more important folder hides the same name further
/// down, an entry whose `TryExec` program is missing is skipped, and types are matched exactly
/// after alias resolution: a previewer for `text/plain` is not used for `text/x-python`, which
/// shared-mime-info calls a subclass of it — it states what it can show.
public struct ExternalPreviewers: Sendable {
    /// Usable entries, most important folder first, then by file name.
    public let entries: [PreviewerFile]
    /// Entries ignored because their `TryExec` program is missing.
    public let skipped: [PreviewerFile]
    /// Canonical MIME type → indices into `entries`.
    private let byType: [String: [Int]]
    private let mimeDatabase: SharedMimeDatabase
    private let searchPath: String
    public var sandbox: ThumbnailerSandbox

    /// Loads from `folders` (by default `folders(environment:)`); `mimeDatabase` resolves aliases
    /// (by default the environment's shared-mime-info); `searchPath` is where `TryExec` and `Exec`
    /// programs are looked for.
    public init(folders: [String] = ExternalPreviewers.folders(), mimeDatabase: SharedMimeDatabase? = nil,
                searchPath: String? = nil, sandbox: ThumbnailerSandbox = .automatic) {
        let searchPath = searchPath ?? ProgramSearch.processSearchPath
        let database = mimeDatabase ?? SharedMimeDatabase.loaded()
        let (usable, skipped) = DesktopEntryFolders.load(folders, suffix: ".previewer", searchPath: searchPath,
                                                         parse: PreviewerFile.parse, tryExec: \.tryExec)
        self.entries = usable
        self.skipped = skipped
        self.byType = DesktopEntryFolders.index(usable.map(\.mimeTypes), database: database)
        self.mimeDatabase = database
        self.searchPath = searchPath
        self.sandbox = sandbox
    }

    /// The folders previewers are read from, most important first.
    public static func folders(_ environment: ProcessEnvironment = .current) -> [String] {
        var seen = Set<String>()
        return ([environment.configHome] + environment.dataDirectories)
            .filter { !$0.isEmpty && seen.insert($0).inserted }
            .map { ($0.hasSuffix("/") ? $0 : $0 + "/") + "qlbrowse/previewers" }
    }

    /// The previewer for exactly `type` (or an alias of it): the first that lists it.
    public func previewer(for type: ContentType) -> PreviewerFile? {
        byType[mimeDatabase.canonical(type.identifier)]?.first.map { entries[$0] }
    }

    /// A runner for the previewer serving `type`, or nil when none does.
    public func runner(for type: ContentType) -> ExternalPreviewer? {
        previewer(for: type).map { ExternalPreviewer($0, sandbox: sandbox, searchPath: searchPath) }
    }

    /// Every MIME type some entry serves, as the entries list them, with the entry. An entry hidden
    /// for a type by an earlier one is still listed (`qlbrowse types` shows both; the first wins).
    public var servedTypes: [(type: String, previewer: PreviewerFile)] {
        entries.flatMap { entry in entry.mimeTypes.map { (type: $0, previewer: entry) } }
    }
}
