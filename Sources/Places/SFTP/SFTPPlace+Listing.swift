import FileSystemKit
import Synchronization
import SystemKit

extension SFTPPlace {
    /// Lists `folder`: OPENDIR, then READDIR until the end, each answer's names (a hundred or
    /// so with OpenSSH) delivered together when the listing is quick, else every second. A
    /// symbolic link is reported as what it points to (one STAT each, asked together). Each
    /// answer has `listingDeadline` seconds; a link lost ends the listing with `.volumeGone`.
    @discardableResult
    public func list(_ folder: String, deliver: @escaping @Sendable (EntryStore, Bool, FileSystemError?) -> Void) -> PlaceTask {
        // A quick listing crosses whole, as `RemoteListingBatches` has it for the remote place:
        // READDIR answers come in directory order, 100 names a round trip, and a browser that
        // drew each would ask for the pictures (whole files, here) of screens it re-sorts at once.
        // A longer listing shows its entries every second.
        // A cancelled listing says nothing more (its canceller may be inside `deliver`: the flag,
        // not the batches' lock, is what stops it).
        let cancelled = Atomic<Bool>(false)
        let batches = RemoteListingBatches(wait: 1) { batch, complete in
            if !cancelled.load(ordering: .relaxed) { deliver(batch, complete, nil) }
        }
        let worker = Task { [self] in
            do throws(FileSystemError) {
                guard case .handle(_, let handle) = try await call(.openDirectory(path: folder.fileSystemBytes), path: folder,
                                                                   deadline: listingDeadline) else { throw unexpected(folder) }
                defer { closeHandle(handle) }
                var kinds = KindGuesser()
                var raw: [[UInt8]: SFTPAttributes] = [:]
                while !Task.isCancelled {
                    let reply = try await call(.readDirectory(handle: handle), path: folder, deadline: listingDeadline, allowsEndOfFile: true)
                    guard case .names(_, let names) = reply else { break }
                    for entry in names where entry.name != [0x2E] && entry.name != [0x2E, 0x2E] { raw[entry.name] = entry.attributes }
                    let batch = try await self.batch(names, in: folder, kinds: &kinds)
                    if Task.isCancelled { return batches.end() }
                    batches.add(batch, complete: false)
                }
                if Task.isCancelled { return batches.end() }
                lastListing.withLock { $0 = (folder, raw) }
                batches.add(EntryStore(), complete: true)
            } catch {
                batches.end()
                if !cancelled.load(ordering: .relaxed) { deliver(EntryStore(), true, error) }
            }
        }
        return PlaceTask {
            cancelled.store(true, ordering: .relaxed)
            worker.cancel()
        }
    }

    /// One READDIR answer as entries (".", ".." and names no file system has, with "/" or NUL, left out), links followed.
    private func batch(_ names: [SFTPName], in folder: String, kinds: inout KindGuesser) async throws(FileSystemError) -> EntryStore {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let links = names.indices.filter { names[$0].attributes.isSymbolicLink }
        var targets: [Int: SFTPAttributes] = [:]
        if !links.isEmpty {
            targets = await withTaskGroup(of: (Int, SFTPAttributes?).self) { group in
                for index in links {
                    let path = prefix + String(fileSystemBytes: names[index].name)
                    group.addTask { [self] in
                        guard case .attributes(_, let target)? = try? await call(.stat(path: path.fileSystemBytes), path: path) else { return (index, nil) }
                        return (index, target)
                    }
                }
                var found: [Int: SFTPAttributes] = [:]
                for await (index, target) in group { if let target { found[index] = target } }
                return found
            }
        }
        var batch = EntryBatch()
        for (index, entry) in names.enumerated() where entry.name != [0x2E] && entry.name != [0x2E, 0x2E] && !entry.name.isEmpty
            && !entry.name.contains(0x2F) && !entry.name.contains(0) {
            let attributes = targets[index] ?? entry.attributes
            let isLink = entry.attributes.isSymbolicLink
            entry.name.withUnsafeBufferPointer { name in
                batch.append(name: name, isDirectory: attributes.isDirectory, isSymbolicLink: isLink, size: Int(clamping: attributes.size ?? 0),
                             modified: Int(attributes.modified ?? 0), kind: kinds.kind(of: name, isDirectory: attributes.isDirectory))
            }
        }
        return EntryStore(batch)
    }
}
