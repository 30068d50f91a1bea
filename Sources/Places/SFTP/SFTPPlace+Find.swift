import FileSystemKit
import SystemKit

extension SFTPPlace {
    /// Refused: an SFTP server has no walker of its own (no qlbrowse there), and walking a tree
    /// one SFTP listing at a time over the link is not done. Installing qlbrowse on the remote
    /// makes it an ssh remote, whose `qlbrowse serve` finds where the files are.
    public func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        .refused(FileSystemError(code: .unsupported, path: folder,
                                 context: "finding names needs qlbrowse on the remote: over SFTP alone there is nothing to walk the folders there"),
                 report: report)
    }

    /// Refused: looking inside files over SFTP alone would read every file across the link;
    /// qlbrowse on the remote runs ripgrep there instead.
    public func findInside(_ folder: String, query: String, limit: Int,
                           report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceTask {
        report(.failure(FileSystemError(code: .unsupported, path: folder,
                                        context: "looking inside files needs qlbrowse on the remote: over SFTP alone every file would cross the link")))
        return PlaceTask()
    }
}
