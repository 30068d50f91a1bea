import SystemKit
import FileSystemKit

/// Live Photos as one entry: the still stands for the pair (with a badge), file operations take
/// the movie along, and Quick Look plays the movie on `p`.
extension BrowserState {
    /// The movie name of `entry` when it is the still of a Live Photo.
    public func liveMovie(of entry: Entry) -> String? {
        navigation.livePhotos.movie(ofStill: entry.nameBytes).map { String(fileSystemBytes: $0) }
    }

    /// `paths` with each Live Photo's movie after its still; and how many movies came along.
    func withLiveMovies(_ paths: [String]) -> (paths: [String], movies: Int) {
        guard navigation.livePhotos.count > 0 else { return (paths, 0) }
        var result: [String] = [], movies = 0
        for path in paths {
            result.append(path)
            let name = Array(Self.lastComponent(path).utf8)
            if let movie = navigation.livePhotos.movie(ofStill: name) {
                result.append(Self.join(folder, String(fileSystemBytes: movie)))
                movies += 1
            }
        }
        return (result, movies)
    }

    /// Whether the picture Quick Look shows has a movie: a Live Photo, or a Motion Photo once the worker found one inside.
    public var hasMotion: Bool {
        guard let entry = selected else { return false }
        return liveMovie(of: entry) != nil || quickLook.motionLength != nil
    }

    /// The file Quick Look plays or shows: a Live Photo's movie while its motion plays.
    public var quickLookPath: String? {
        if quickLook.showsMotion, let entry = selected, let movie = liveMovie(of: entry) { return Self.join(folder, movie) }
        return selectedPath
    }

    /// "(with 2 Live Photo movies)", or nothing.
    static func movieNote(_ movies: Int) -> String {
        movies == 0 ? "" : " (with \(movies == 1 ? "its Live Photo movie" : "\(movies) Live Photo movies"))"
    }
}
