import FileSystemKit
import SystemKit

extension SFTPPlace {
    /// How often a watched folder's own attributes are asked: one STAT of about 100 bytes.
    static let watchPoll: Duration = .seconds(2)
    /// How long after a listing the folder is listed whole again even when its attributes did
    /// not change (a file written in place changes its own size and mtime, not its folder's):
    /// 30 s, or 50 times what the last listing took when that is longer (a big folder over a
    /// slow link: such listings then take at most 2 % of the link's time).
    static let watchRelist: Duration = .seconds(30)
    static let watchRelistShare = 50

    /// A cheap watch for a protocol that has none: the folder polled while it is watched (the
    /// browser watches the folder it shows, and ends the watch when it leaves it) and only while
    /// the link is idle (a copy or a picture's read under way goes first; a link that is gone is
    /// not connected again for a watch). Each poll STATs the folder; it is listed again (READDIR,
    /// links not followed) when the folder's mtime or size changed, on the poll after such a
    /// listing (an mtime has whole seconds: a second change in the same second changes nothing),
    /// and every `watchRelist`. Each name whose type, size or mtime differs from the
    /// listing before is reported `.changed`; the folder gone is `.gone`, then the end. See
    /// DECISIONS.md for the interval and what it costs.
    public func watch(_ folder: String) throws(FileSystemError) -> AsyncStream<PlaceChange> {
        let (stream, continuation) = AsyncStream<PlaceChange>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let task = Task.detached(priority: .utility) { [self] in
            await poll(folder) { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// What a poll compares: each name's type and permissions, size and mtime.
    private typealias Snapshot = [[UInt8]: SFTPAttributes]

    private func poll(_ folder: String, report: (PlaceChange) -> Void) async {
        var seen: Snapshot?
        var folderStamp: SFTPAttributes?
        var hot = true, first = true
        var listedAt = ContinuousClock.now, listingTook = Duration.zero
        while !Task.isCancelled {
            // Every poll but the first waits its turn, whatever the one before met.
            if !first { try? await Task.sleep(for: Self.watchPoll) }
            first = false
            while !Task.isCancelled, !linkIsIdle {
                if RemoteTrace.isOn { RemoteTrace.note("sftp", "watch waits for the link \(openConnection?.inFlight ?? -1)") }
                try? await Task.sleep(for: .milliseconds(500))
            }
            if Task.isCancelled { return }
            // The browser lists the folder, then watches it: the first poll (once that listing
            // left the link idle) compares with what it showed.
            if seen == nil, let last = lastListing.withLock({ $0 }), last.folder == folder { seen = last.names }
            do throws(FileSystemError) {
                guard case .attributes(_, let attributes) = try await call(.stat(path: folder.fileSystemBytes), path: folder) else { continue }
                let stamp = attributes
                guard attributes.isDirectory else { return report(.gone) }
                let changed = stamp != folderStamp
                if RemoteTrace.isOn { RemoteTrace.note("sftp", "watch polled \(folder) changed \(changed) hot \(hot)") }
                let due = ContinuousClock.now - listedAt >= max(Self.watchRelist, listingTook * Self.watchRelistShare)
                guard seen == nil || changed || hot || due else { continue }
                let started = ContinuousClock.now
                let now = try await snapshot(folder)
                (listedAt, listingTook) = (ContinuousClock.now, ContinuousClock.now - started)
                if Task.isCancelled { return }
                if let seen {
                    if RemoteTrace.isOn { RemoteTrace.note("sftp", "watch listed \(now.count) names, \(seen.count) before") }
                    let names = Set(seen.keys).union(now.keys).filter { seen[$0] != now[$0] }
                    if names.count > 64 { report(.changed(name: [])) } else { names.forEach { report(.changed(name: $0)) } }
                }
                // The poll after a listing the folder's change asked for (the first one too) lists again.
                hot = changed
                seen = now
                folderStamp = stamp
            } catch {
                if error.code == .notFound { return report(.gone) }
                if error.code == .cancelled { return }
                // Not answering, or the link gone: the next poll tries again.
            }
        }
    }

    /// Whether a poll may go now: a connection open and no request waiting for its answer.
    private var linkIsIdle: Bool {
        guard let open = openConnection, open.gone == nil else { return false }
        return open.inFlight == 0
    }

    /// `folder`'s names with their stamps, as READDIR has them (links as links).
    private func snapshot(_ folder: String) async throws(FileSystemError) -> Snapshot {
        guard case .handle(_, let handle) = try await call(.openDirectory(path: folder.fileSystemBytes), path: folder,
                                                           deadline: listingDeadline) else { throw unexpected(folder) }
        defer { closeHandle(handle) }
        var found: Snapshot = [:]
        while case .names(_, let names) = try await call(.readDirectory(handle: handle), path: folder, deadline: listingDeadline,
                                                         allowsEndOfFile: true) {
            for entry in names where entry.name != [0x2E] && entry.name != [0x2E, 0x2E] { found[entry.name] = entry.attributes }
            if Task.isCancelled { throw FileSystemError(code: .cancelled, path: folder) }
        }
        return found
    }
}
