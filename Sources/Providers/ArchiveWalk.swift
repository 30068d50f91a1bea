import SystemKit
import ThumbnailKit

/// What `ArchiveLister` gathers while it reads headers: the members kept (up to the limit), how
/// many there were in all, their total size, and why listing stopped early; then the note.
struct ArchiveWalk {
    let limit: Int
    private(set) var members: [ArchiveMember] = []
    private(set) var count = 0
    private(set) var totalSize: Int64 = 0
    private(set) var encrypted = 0
    /// Set when listing stopped before the end of the archive: the reason, in words.
    var stoppedEarly: String?

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    mutating func add(_ member: ArchiveMember, encrypted isEncrypted: Bool) {
        count += 1
        let (sum, overflow) = totalSize.addingReportingOverflow(member.size)
        totalSize = overflow ? .max : sum
        if isEncrypted { encrypted += 1 }
        if members.count < limit { members.append(member) }
    }

    func listing(archiveSize: Int64, format: String?) -> ArchiveListing {
        var notes: [String] = []
        let more = count > members.count
        if more {
            let total = stoppedEarly == nil && count < ArchiveLister.countingLimit ? "\(GroupedNumber.text(count))" : "at least \(GroupedNumber.text(count))"
            notes.append("showing the first \(GroupedNumber.text(members.count)) of \(total) members")
        }
        if let stoppedEarly { notes.append(stoppedEarly) }
        if totalSize >= ArchiveLister.bombSize && totalSize / max(1, archiveSize) >= ArchiveLister.bombRatio {
            let ratio = totalSize / max(1, archiveSize)
            notes.append("the members unpack to \(ByteCount.text(Int(totalSize))) from a \(ByteCount.text(Int(archiveSize))) archive "
                         + "(\(GroupedNumber.text(Int(ratio)))×): possibly an archive bomb; nothing is unpacked here")
        }
        if encrypted > 0 { notes.append("\(GroupedNumber.text(encrypted)) of the members are encrypted") }
        if count == 0 && stoppedEarly == nil { notes.append(archiveSize == 0 ? "the file is empty" : "the archive has no members") }
        return ArchiveListing(members: members, truncated: more || stoppedEarly != nil,
                              note: notes.isEmpty ? nil : notes.joined(separator: "; "), format: format)
    }
}
