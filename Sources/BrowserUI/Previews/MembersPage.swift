import ThumbnailKit

/// An archive's members as Quick Look shows them, or why they could not be listed.
struct MembersPage: Sendable, Equatable {
    let path: String
    let rows: [ArchiveTree.Row]
    /// Members, their total size, and the format ("zip", "gnutar", "7-Zip").
    let memberCount: Int
    let totalBytes: Int64
    let format: String?
    /// More members than were listed, a size that looks like a bomb: in words.
    let note: String?
    var problem: String?

    init(path: String, listing: ArchiveListing) {
        self.path = path
        rows = ArchiveTree.rows(listing.members)
        memberCount = listing.members.count
        totalBytes = listing.members.reduce(0) { $0 + max(0, $1.size) }
        format = listing.format
        note = listing.truncated ? (listing.note ?? "showing the first \(listing.members.count) members") : listing.note
    }

    init(path: String, problem: String) {
        self.path = path
        rows = []
        memberCount = 0
        totalBytes = 0
        format = nil
        note = nil
        self.problem = problem
    }
}
