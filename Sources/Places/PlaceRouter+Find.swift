import FileSystemKit
import SystemKit

extension PlaceRouter {
    /// `F` in a tab: the search runs on the folder's place with the remote's prefix taken off.
    /// Its matches are relative to the folder, so they come back as they are (the browser puts
    /// them under the tab's folder, prefix and all); this computer's mount points are passed
    /// only to this computer (a remote leaves out its own).
    public func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        let route: Route
        do throws(FileSystemError) {
            route = try self.route(folder)
        } catch {
            return .refused(error, report: report)
        }
        return route.place.find(under: route.path, showsHidden: showsHidden, skipping: route.prefix == nil ? mountPoints : nil, report: report)
    }

    /// Tab in `F` in a tab: the search inside files runs on the folder's place (ripgrep where
    /// the files are), the remote's prefix taken off; its paths are relative to the folder.
    public func findInside(_ folder: String, query: String, limit: Int,
                           report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceTask {
        let route: Route
        do throws(FileSystemError) {
            route = try self.route(folder)
        } catch {
            report(.failure(error))
            return PlaceTask()
        }
        return route.place.findInside(route.path, query: query, limit: limit, report: report)
    }
}
