#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The temporaries interrupted transfers left, as their journals name them: the next transfer
/// into the same folder of the same place removes them (`PlaceTransfer`), which works on every
/// place alike (a remote's or an SFTP server's `.NAME.qlbrowse-PID-N.part`, which no rule on
/// that machine knows about), where a local copy only had `FileCopier`'s rule for its own folder.
extension TransferJournal {
    /// A temporary an ended transfer left: the journal that names it and its item's source.
    struct Leftover: Sendable {
        let journal: String
        let source: String
        let temporary: String
        /// The place its source is on (the journal's `from`) and where its copy stopped, if a
        /// later copy of the same source may go on from there.
        let from: String
        let resume: Resume?
    }

    /// The journals of transfers under way in this process (a journal of another process is
    /// under way while that process lives).
    static let running = Mutex<Set<String>>([])

    /// The temporaries in `folder` on the place named `place` that the journals beside this one
    /// say an item left (`copying` when qlbrowse was killed, `not copied` when the link was cut)
    /// and whose transfer is over: its process gone, or this one's finished. Only names of ours
    /// (`.NAME.qlbrowse-PID-N.part` right in `folder`) are ever given.
    func leftovers(in folder: String, on place: String) -> [Leftover] {
        let journals = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let own = getpid()
        var found: [Leftover] = []
        for (name, _) in DirectoryEntries.list(journals) where name.hasSuffix(".json") && journals + "/" + name != path {
            let parts = name.split(separator: "-")
            guard parts.count == 3, let pid = Int32(parts[1]) else { continue }
            let file = journals + "/" + name
            if pid == own ? Self.running.withLock({ $0.contains(file) }) : (kill(pid, 0) == 0 || errno == EPERM) { continue }
            guard let bytes = FileDescriptorReader.readFile(file, upTo: 16 << 20),
                  let record = try? JSONDecoder().decode(Record.self, from: Data(bytes)), record.to == place else { continue }
            for item in record.items where item.state == .copying || item.state == .notCopied {
                guard let temporary = item.temporary, Self.isOurs(temporary, in: folder) else { continue }
                found.append(Leftover(journal: file, source: item.source, temporary: temporary, from: record.from, resume: item.resume))
            }
        }
        return found
    }

    /// Whether `temporary` is a transfer's temporary name right inside `folder`.
    static func isOurs(_ temporary: String, in folder: String) -> Bool {
        let parent = folder.hasSuffix("/") ? folder : folder + "/"
        guard temporary.hasPrefix(parent) else { return false }
        let name = String(temporary.dropFirst(parent.count))
        return !name.contains("/") && name.hasPrefix(".") && name.contains(".qlbrowse-") && name.hasSuffix(".part")
    }

    /// Writes into the journal at `file` that `leftover`'s temporary is gone (removed by a later
    /// transfer, or taken over by one that goes on with it): the record stays, true to what is there now.
    static func forget(_ leftover: Leftover, because note: String = "its temporary was removed by a later copy") {
        guard let bytes = FileDescriptorReader.readFile(leftover.journal, upTo: 16 << 20),
              var record = try? JSONDecoder().decode(Record.self, from: Data(bytes)) else { return }
        for index in record.items.indices where record.items[index].source == leftover.source && record.items[index].temporary == leftover.temporary {
            record.items[index].temporary = nil
            record.items[index].resume = nil
            record.items[index].reason = (record.items[index].reason.map { $0 + "; " } ?? "") + note
        }
        guard let encoded = try? JSONEncoder().encode(record) else { return }
        try? AtomicFileWriter.writeState([UInt8](encoded), to: leftover.journal)
    }
}
