/// The members of an archive as `PreviewGenerator.members(path:limit:)` returns them.
public struct ArchiveListing: Sendable, Equatable, Codable {
    /// In archive order, at most the limit asked for.
    public let members: [ArchiveMember]
    /// True when the archive has more members than were listed (or listing stopped early).
    public let truncated: Bool
    /// What a user should know about the listing, in words: a member count past the limit, a
    /// total size far above the archive's own (a possible archive bomb), a listing cut short by
    /// damage. Nil when there is nothing to say.
    public let note: String?
    /// The archive format libarchive found (`ZIP 2.0 (deflation)`, `GNU tar format`, `7-Zip`…).
    public let format: String?

    public init(members: [ArchiveMember], truncated: Bool, note: String?, format: String?) {
        self.members = members
        self.truncated = truncated
        self.note = note
        self.format = format
    }
}
