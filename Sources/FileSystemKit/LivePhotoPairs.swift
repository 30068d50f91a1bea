/// Apple Live Photos in a folder: a still (HEIC or JPEG) and the short movie (MOV) the camera
/// took with it, under the same name (`IMG_1234.HEIC` and `IMG_1234.MOV`, case aside). The
/// browser shows the pair as the still alone, with a badge, and moves, copies, renames and
/// trashes them together.
public struct LivePhotoPairs: Sendable, Equatable {
    /// By lower-cased stem: the still's and the movie's names.
    private var stills: [[UInt8]: [UInt8]] = [:]
    private var movies: [[UInt8]: [UInt8]] = [:]
    /// How many stills have their movie.
    public private(set) var count = 0

    public init() {}

    /// Adds a name from the listing; returns the movie that is now part of a pair (to hide), if any.
    @discardableResult
    public mutating func add(_ name: [UInt8]) -> [UInt8]? {
        guard let (stem, isMovie) = Self.role(of: name) else { return nil }
        if isMovie {
            movies[stem] = name
            if stills[stem] != nil { count += 1; return name }
        } else {
            stills[stem] = name
            if let movie = movies[stem] { count += 1; return movie }
        }
        return nil
    }

    /// The movie that goes with the still `name`, if it is a Live Photo.
    public func movie(ofStill name: [UInt8]) -> [UInt8]? {
        guard count > 0, let (stem, isMovie) = Self.role(of: name), !isMovie, stills[stem] == name else { return nil }
        return movies[stem]
    }

    /// Whether `name` is the movie of a Live Photo (shown through its still).
    public func isMovieOfAPair(_ name: [UInt8]) -> Bool {
        guard count > 0, let (stem, isMovie) = Self.role(of: name), isMovie else { return false }
        return movies[stem] == name && stills[stem] != nil
    }

    /// The movie's new name when the still is renamed to `newStill`: the same stem, its own suffix.
    public static func movieName(_ movie: String, forStill newStill: String) -> String {
        let stem = newStill.lastIndex(of: ".").map { String(newStill[..<$0]) } ?? newStill
        let suffix = movie.lastIndex(of: ".").map { String(movie[$0...]) } ?? ""
        return stem + suffix
    }

    /// The lower-cased stem and whether the name is the movie half, for names that can be a half.
    static func role(of name: [UInt8]) -> (stem: [UInt8], isMovie: Bool)? {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return nil }
        let suffix = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        let isMovie: Bool
        switch suffix {
        case "mov": isMovie = true
        case "heic", "heif", "jpg", "jpeg": isMovie = false
        default: return nil
        }
        return (name[..<dot].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, isMovie)
    }
}
