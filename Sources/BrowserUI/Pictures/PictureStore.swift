import SystemKit
import ThumbnailKit

/// What has come back for the screen: pictures by key, failures, and the text Quick Look shows,
/// each within a named budget; what is evicted comes back from the thumbnail cache when wanted again.
final class PictureStore {
    /// At most this many pictures, or this many bytes of pixels, before those off screen go.
    static let pictureBudget = (count: 600, bytes: 160 << 20)
    /// Text pages kept (one per file, a few screens each).
    static let textBudget = 64

    private(set) var pictures: [PictureKey: Representation] = [:]
    private(set) var failures: [PictureKey: String] = [:]
    private var texts: [String: TextPage] = [:]
    private var textOrder: [String] = []
    /// Pictures found to carry a movie inside (Motion Photos), by path: shown with a badge.
    private(set) var motionPhotos: Set<String> = []
    /// The keys the last frame wanted: kept when over budget.
    private(set) var wanted: Set<PictureKey> = []

    /// Keeps a representation unless a better one is already there. True when it was kept.
    @discardableResult
    func store(_ representation: Representation, for key: PictureKey) -> Bool {
        if representation.facts.contains(where: { $0.label == FileFact.motionPhoto }) { motionPhotos.insert(key.path) }
        if let old = pictures[key], old.type > representation.type { return false }
        // Pixels only: the PNG the engine may hand along (the cache file's bytes) is not counted
        // in the budget and the screen never needs it.
        var kept = representation
        kept.encodedPNG = nil
        pictures[key] = kept
        failures[key] = nil
        return true
    }

    /// The picture for `key`, or for a frame not in yet the latest frame of the same video in
    /// the same place (a playing video shows the newest frame it has).
    func picture(for key: PictureKey) -> (PictureKey, Representation)? {
        if let exact = pictures[key] { return (key, exact) }
        guard key.isFrame else { return nil }
        return pictures.filter { $0.key.showsSameMovingPicture(as: key) }.max { $0.key.frameTime < $1.key.frameTime }.map { ($0.key, $0.value) }
    }

    func storeFailure(_ reason: String, for key: PictureKey) { failures[key] = reason }

    func storeText(_ page: TextPage) {
        if texts.updateValue(page, forKey: page.path) == nil { textOrder.append(page.path) }
        while textOrder.count > Self.textBudget { texts[textOrder.removeFirst()] = nil }
    }

    func text(for path: String) -> TextPage? { texts[path] }

    /// Drops everything of the file at `path`: it changed under its name.
    func forget(path: String) {
        pictures = pictures.filter { $0.key.path != path }
        failures = failures.filter { $0.key.path != path }
        forgetText(for: path)
        members[path] = nil
    }

    /// Drops a file's text (a custom previewer's output replaces what was read of the file).
    func forgetText(for path: String) { texts[path] = nil }

    /// Archive listings kept (the last few opened in Quick Look).
    static let membersBudget = 8
    private var members: [String: MembersPage] = [:]

    func storeMembers(_ page: MembersPage) {
        if members.count >= Self.membersBudget { members.removeAll() }
        members[page.path] = page
    }

    func members(for path: String) -> MembersPage? { members[path] }

    /// Records what the screen wants now; returns those that need no more work (complete, or failed).
    func want(_ keys: [PictureKey]) -> Set<PictureKey> {
        wanted = Set(keys)
        return Set(keys.filter { (pictures[$0]?.type == .thumbnail) || ($0.iconOnly && pictures[$0] != nil) || failures[$0] != nil })
    }

    /// Over budget, everything not wanted goes. True when something went (encodings of it must go too).
    func evictIfNeeded() -> Bool {
        let bytes = pictures.values.reduce(0) { $0 + $1.image.pixels.count }
        guard pictures.count > Self.pictureBudget.count || bytes > Self.pictureBudget.bytes else { return false }
        pictures = pictures.filter { wanted.contains($0.key) }
        failures = failures.filter { wanted.contains($0.key) }
        return true
    }
}
