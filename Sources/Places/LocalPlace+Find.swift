import FileSystemKit
import SystemKit

extension LocalPlace {
    /// `F` on this computer: a `FileFinder` on `folder` (one thread walks, another ranks), other
    /// volumes' mount points never entered (`skipping`, or this computer's mount table when nil:
    /// a remote's `qlbrowse serve` finding for the other side). Its reports never fail.
    public func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        find(under: folder, showsHidden: showsHidden, skipping: mountPoints, best: 200, streams: false, report: report)
    }

    /// The same, with `FileFinder`'s `best` count and `streams` (each match as it is found, in
    /// `Report.fresh`) as `qlbrowse find` asks them.
    public func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?, best: Int, streams: Bool,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        let skipped = mountPoints ?? VolumeMonitor.currentVolumes().map(\.mountPoint)
        let finder = FileFinder(root: folder, showsHidden: showsHidden, skipping: skipped, best: best, streams: streams) { report(.success($0)) }
        return PlaceFind(start: { finder.start() }, search: { finder.search($0) }, onCancel: { finder.stop() })
    }
}
