import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// This computer and every remote place the browser has connected to, as one `Place`: a path
/// under a remote's prefix (`ssh://me@nas:2222/photos`, `PlacePath`) goes to that remote with the
/// prefix taken off, and what comes back (items, reports, trashed items, events) gets it put
/// back; every other path goes to this computer's place unchanged. So a browser's tabs can show
/// local and remote folders side by side through the one place its listing, pictures and jobs
/// are built on, and a local-only browser behaves exactly as before.
///
/// A copy or move whose sources and destination are on different places runs as a
/// `PlaceTransfer` (pieces under a temporary name; see `PlaceRouter+Transfer`).
public final class PlaceRouter: Place {
    /// This computer's place (a `LocalPlace`; a test's own place in tests).
    public let local: any Place
    private struct Remote: Sendable {
        let place: any Place
        let label: String?
    }
    private let remotes: Mutex<[String: Remote]>

    public var name: String { local.name }

    /// A router on `local`, with no remote yet.
    public init(local: any Place) {
        self.local = local
        self.remotes = Mutex([:])
    }

    /// Adds `place` under `prefix` (`PlacePath.prefix`), named `label` on the status line
    /// ("remote:nas"); a place already there under that prefix is replaced.
    public func add(_ place: any Place, under prefix: String, label: String?) {
        remotes.withLock { $0[prefix] = Remote(place: place, label: label) }
    }

    /// The place connected under `prefix`, if any.
    public func place(under prefix: String) -> (any Place)? {
        remotes.withLock { $0[prefix]?.place }
    }

    /// Every remote place connected (to disconnect them when the browser quits).
    public var remotePlaces: [any Place] {
        remotes.withLock { Array($0.values.map(\.place)) }
    }

    /// Ends the link of every remote place connected, over qlbrowse serve or SFTP (`RemoteLink`):
    /// the browser quitting leaves no ssh of its own running.
    public func disconnectRemotes() {
        for place in remotePlaces { (place as? any RemoteLink)?.disconnect() }
    }

    /// What the status line says of the place `path` is on: nil on this computer.
    public func label(for path: String) -> String? {
        guard let prefix = PlacePath.split(path)?.prefix else { return nil }
        return remotes.withLock { $0[prefix]?.label } ?? PlacePath.host(path).map { "remote:" + TerminalText.escaped($0) }
    }

    /// Whether `path` is on this computer's own file system (not a remote, not a test's place):
    /// what the undo journal, `R` and Quick Look's edits act on by path.
    public func isThisComputer(_ path: String) -> Bool {
        local is LocalPlace && PlacePath.isLocal(path)
    }

    /// Where a path goes: the place, the prefix to put back (nil for this computer), the path there.
    struct Route: Sendable {
        let place: any Place
        let prefix: String?
        let path: String

        /// `inner` (a path on this route's place) as the browser names it.
        func outer(_ inner: String) -> String { PlacePath.join(prefix, inner) }
        func inner(_ outer: String) -> String { prefix == nil ? outer : PlacePath.split(outer)?.path ?? outer }
    }

    /// The route of `path`; `.volumeGone` when it names a remote not connected (any more).
    func route(_ path: String) throws(FileSystemError) -> Route {
        guard let (prefix, inner) = PlacePath.split(path) else { return Route(place: local, prefix: nil, path: path) }
        guard let remote = remotes.withLock({ $0[prefix] }) else {
            throw FileSystemError(code: .volumeGone, path: path, errno: ENOTCONN, context: "not connected to \(PlacePath.host(path) ?? prefix)")
        }
        return Route(place: remote.place, prefix: prefix, path: inner)
    }

    /// Quick Look's previews for `path` and the path to ask them for, made where the file is.
    public func previews(for path: String) -> (generator: PreviewGenerator, path: String)? {
        guard let route = try? route(path), let generator = route.place.previews else { return nil }
        return (generator, route.path)
    }

    @discardableResult
    public func list(_ folder: String, deliver: @escaping @Sendable (EntryStore, Bool, FileSystemError?) -> Void) -> PlaceTask {
        do throws(FileSystemError) {
            let route = try route(folder)
            return route.place.list(route.path, deliver: deliver)
        } catch {
            deliver(EntryStore(), true, error)
            return PlaceTask()
        }
    }

    public func probe(_ folder: String) async -> FileSystemError? {
        do throws(FileSystemError) {
            let route = try route(folder)
            return await route.place.probe(route.path)
        } catch {
            return error
        }
    }

    public func item(at path: String) async throws(FileSystemError) -> PlaceItem {
        let route = try route(path)
        return route.outer(try await route.place.item(at: route.path))
    }

    public func read(_ path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8] {
        let route = try route(path)
        return try await route.place.read(route.path, offset: offset, length: length)
    }

    public func textLines(_ path: String, from first: Int, count: Int) async throws(FileSystemError) -> TextFileWindow.Lines {
        let route = try route(path)
        return try await route.place.textLines(route.path, from: first, count: count)
    }

    public func write(_ bytes: [UInt8], to path: String) async throws(FileSystemError) {
        let route = try route(path)
        try await route.place.write(bytes, to: route.path)
    }

    public func writeChunk(_ bytes: [UInt8], to path: String, at offset: Int, last: Bool, mode: UInt32?) async throws(FileSystemError) {
        let route = try route(path)
        try await route.place.writeChunk(bytes, to: route.path, at: offset, last: last, mode: mode)
    }

    public func setMode(_ path: String, to mode: UInt32) async throws(FileSystemError) {
        let route = try route(path)
        try await route.place.setMode(route.path, to: mode)
    }

    public func watch(_ folder: String) async throws(FileSystemError) -> AsyncStream<PlaceChange> {
        let route = try route(folder)
        return try await route.place.watch(route.path)
    }

    public func rename(_ path: String, to newPath: String) async throws(FileSystemError) -> PathStamp? {
        let route = try route(path)
        return try await route.place.rename(route.path, to: route.inner(newPath))
    }

    public func stamp(_ path: String) async throws(FileSystemError) -> PathStamp? {
        let route = try route(path)
        return try await route.place.stamp(route.path)
    }

    /// Whether this computer's place stamps its files (a test's own place does not).
    public var stampsFiles: Bool { local.stampsFiles }

    /// Whether what is done at `path` is written in the undo journal: its place can stamp its
    /// files (this computer, a remote over `qlbrowse serve`; not SFTP). A remote not connected
    /// any more: no.
    public func keepsUndo(_ path: String) -> Bool {
        (try? route(path))?.place.stampsFiles ?? false
    }

    public func make(_ path: String, folder: Bool) async throws(FileSystemError) -> PathStamp? {
        let route = try route(path)
        return try await route.place.make(route.path, folder: folder)
    }

    public func trash(_ path: String) async throws(FileSystemError) -> TrashCan.Item {
        let route = try route(path)
        return route.outer(try await route.place.trash(route.path))
    }

    public func restore(_ item: TrashCan.Item) async throws(FileSystemError) -> String {
        let route = try route(item.originalPath)
        return route.outer(try await route.place.restore(route.inner(item)))
    }

    public func capabilities(of folder: String, trial: Bool) async throws(FileSystemError) -> VolumeCapabilities {
        let route = try route(folder)
        return try await route.place.capabilities(of: route.path, trial: trial)
    }

    /// This computer's previews (a remote's are reached through `previews(for:)`).
    public var previews: PreviewGenerator? { local.previews }
}
