import Dispatch
import FileSystemKit
import Places
import Synchronization
import SystemKit

/// `qlbrowse find QUERY ssh://host/path` (or `host:path`): the remote connected as `files copy`
/// connects it (`RemoteEntry.connectAny`: its `qlbrowse serve`, else plain SFTP), its folder
/// walked and ranked there (`RemotePlace.find` with the command line's `--best` and `--all`; over
/// SFTP, walked from here, `SFTPPlace.find`), the reports handed to the caller, which prints
/// them as it prints a local search's.
struct RemoteFind {
    let text: String
    let address: RemoteAddress
    let remote: RemoteEntry.Connected

    /// The remote `folder` names, connected, or nil when it names a local one (a local item by
    /// that name wins over scp's form, as for `./a:b`).
    static func open(_ folder: String?) throws -> RemoteFind? {
        guard let folder, let address = RemoteAddress.parse(folder) else { return nil }
        if (try? PlaceCall.wait({ () throws(FileSystemError) in try await LocalPlace().item(at: folder) })) != nil { return nil }
        do throws(FileSystemError) {
            return RemoteFind(text: folder, address: address, remote: try RemoteEntry.connectAny(address, config: UserConfig.load()))
        } catch {
            throw RuntimeError("cannot look in \(TerminalText.escaped(folder)): \(error.message)")
        }
    }

    /// Finds `query` below the remote folder until the complete report (`finished` signalled by
    /// `report`'s caller), then ends the search and the link. A failure is thrown, named.
    func find(_ query: String, showsHidden: Bool, best: Int, streams: Bool, report: @escaping @Sendable (FileFinder.Report) -> Void,
              finished: DispatchSemaphore) throws {
        defer { remote.disconnect() }
        let item: PlaceItem
        do throws(FileSystemError) {
            item = try PlaceCall.wait { [remote, address] () throws(FileSystemError) in try await remote.resolve(address.path) }
        } catch {
            throw RuntimeError("cannot look in \(TerminalText.escaped(text)): \(error.message)")
        }
        guard item.isDirectory else { throw RuntimeError("\(TerminalText.escaped(text)) is not a folder") }
        let failure = Mutex<FileSystemError?>(nil)
        let handle: @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void = { result in
            switch result {
            case .success(let found): report(found)
            case .failure(let error):
                failure.withLock { $0 = error }
                finished.signal()
            }
        }
        let search: PlaceFind
        if let sftp = remote.place as? SFTPPlace {
            search = sftp.find(under: item.path, showsHidden: showsHidden, best: best, streams: streams, report: handle)
        } else if let place = remote.place as? RemotePlace {
            search = place.find(under: item.path, showsHidden: showsHidden, best: best, streams: streams, report: handle)
        } else {
            search = remote.place.find(under: item.path, showsHidden: showsHidden, skipping: nil, report: handle)
        }
        search.search(query)
        search.start()
        finished.wait()
        search.cancel()
        if let error = failure.withLock({ $0 }) {
            throw RuntimeError("cannot look in \(TerminalText.escaped(text)): \(error.message)")
        }
    }
}
