import FileSystemKit
import SystemKit

/// A name search a place runs below a folder (`Place.find`, `F` in the browser): the place walks
/// its folder once, where the files are, and ranks what it walked against each query it is told,
/// reporting the best matches as paths relative to the folder. A handle rather than a call per
/// query because the walk is the cost (on a remote, a whole tree read over there): a new query
/// ranks what was walked, it never walks again. Cancelling stops the walk and every report.
public final class PlaceFind: Sendable {
    private let task: PlaceTask
    private let begin: @Sendable () -> Void
    private let ask: @Sendable (String) -> Void

    /// `start` begins the walk, `search` ranks against a new query, `onCancel` stops both (once).
    public init(start: @escaping @Sendable () -> Void, search: @escaping @Sendable (String) -> Void,
                onCancel: @escaping @Sendable () -> Void) {
        self.task = PlaceTask(onCancel: onCancel)
        self.begin = start
        self.ask = search
    }

    /// Starts the walk (reports come for the query last given to `search`, every path at first).
    public func start() {
        guard !task.isCancelled else { return }
        begin()
    }

    /// Ranks the walked paths against `query`, now and as the walk goes on.
    public func search(_ query: String) {
        guard !task.isCancelled else { return }
        ask(query)
    }

    /// Stops the walk and the ranking; nothing more is reported.
    public func cancel() { task.cancel() }

    public var isCancelled: Bool { task.isCancelled }

    /// A search that cannot run here: `failure` is reported once, when it is started.
    public static func refused(_ failure: FileSystemError, report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        PlaceFind(start: { report(.failure(failure)) }, search: { _ in }, onCancel: {})
    }
}
