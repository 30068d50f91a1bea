import FileSystemKit
import Places
import SystemKit
import ThumbnailKit

/// `qlbrowse files copy` and `files move` when an operand is on another machine (`ssh://[user@]host[:port]/path`
/// or `host:path`): from this computer to a remote folder, back, or between two remotes, by
/// `PlaceTransfer` (pieces under a temporary name, renamed into place; a dropped link resumed,
/// a remote gone reported with what was not copied); within one remote, by that remote's own
/// copy (or move). A move between machines trashes each source once its copy is in place
/// (`PlaceTransfer.move`). Each host is connected once, through the user's ssh: to its
/// `qlbrowse serve`, or over plain SFTP when it has none (`RemoteEntry.connectAny`; there a
/// move *to* it is done, a move *from* it refused: an SFTP server has no trash).
enum RemoteFileCopy {
    /// One operand: where it is and its path there.
    private struct Operand {
        let key: String
        let path: String
    }

    /// Runs the copy and returns its report, or nil when every operand is local (the caller
    /// runs it as before). `clash` answers a taken name; `progress` prints to standard error.
    static func run(_ kind: FileOperation.Kind, sources: [String], destination: String, clash: FileOperation.ConflictChoice,
                    progress: Bool, verify: Bool, deletesSourcesForGood: Bool = false) throws -> FileOperation.Report? {
        let all = sources + [destination]
        let addresses = all.map { operand -> RemoteAddress? in
            guard let address = RemoteAddress.parse(operand) else { return nil }
            // A local item by that name wins over scp's form, as for `./a:b`.
            let local = try? PlaceCall.wait { () throws(FileSystemError) in try await LocalPlace().item(at: operand) }
            return local == nil ? address : nil
        }
        guard addresses.contains(where: { $0 != nil }) else { return nil }
        guard kind == .copy || kind == .move else { return nil }
        let config = UserConfig.load()
        var places: [String: any Place] = ["": LocalPlace()]
        var connected: [String: RemoteEntry.Connected] = [:]
        defer { connected.values.forEach { $0.disconnect() } }
        var operands: [Operand] = []
        for (text, address) in zip(all, addresses) {
            guard let address else {
                operands.append(Operand(key: "", path: PathNormalizer.absolute(text)))
                continue
            }
            let key = "\(address.destination):\(address.port ?? 0)"
            do throws(FileSystemError) {
                let remote: RemoteEntry.Connected
                if let known = connected[key] {
                    remote = known
                } else {
                    remote = try RemoteEntry.connectAny(address, config: config)
                    connected[key] = remote
                    places[key] = remote.place
                }
                let resolved = try PlaceCall.wait { () throws(FileSystemError) in try await remote.resolve(address.path) }
                operands.append(Operand(key: key, path: resolved.path))
            } catch {
                throw RuntimeError("cannot use \(TerminalText.escaped(text)): \(error.message)")
            }
            // A move removes its sources: the remote's root (`host:/`) is refused as rm refuses `/`.
            if kind == .move, operands.count <= sources.count, let refusal = FileOperation.refusalToRemove(operands.last!.path) {
                throw RuntimeError(refusal)
            }
        }
        let from = operands.dropLast(), into = operands.last!
        guard let sourceKey = from.first?.key, from.allSatisfy({ $0.key == sourceKey }) else {
            throw RuntimeError("give sources on one machine at a time")
        }
        let source = places[sourceKey]!, target = places[into.key]!
        let folder: PlaceItem
        do throws(FileSystemError) {
            folder = try PlaceCall.wait { () throws(FileSystemError) in try await target.item(at: into.path) }
        } catch {
            throw RuntimeError("the destination folder \(TerminalText.escaped(destination)) cannot be used: \(error.message)")
        }
        guard folder.isDirectory else { throw RuntimeError("\(TerminalText.escaped(destination)) is not a folder (the last name given is where the files go)") }
        let operation = FileOperation(kind: kind, sources: from.map(\.path), destination: into.path, verifiesContent: verify,
                                      deletesSourcesForGood: deletesSourcesForGood)
        let events = FileOperationEvents(resolve: { _ in (clash, true) }, progress: { state in
            guard progress, state.bytesTotal > 0 else { return }
            StandardStream.write("\r\(state.bytesDone * 100 / state.bytesTotal)% \(state.bytesDone)/\(state.bytesTotal) bytes", to: 2)
        })
        defer { if progress { StandardStream.write("\n", to: 2) } }
        if sourceKey == into.key {
            // Within one remote: its own copy, nothing crosses.
            return try FileCommand.perform(operation, in: target, events: events)
        }
        let transfer = PlaceTransfer(from: source, to: target)
        // Written down as it goes: if this process is killed or the link cut, what was and was
        // not copied (and the temporary left) stays in the journal.
        // A move trashes each source once its copy is in place (the user's Trash here, the
        // remote's own there): undone by restoring it.
        let journal = TransferJournal(kind: kind, from: source.name, to: target.name, destination: into.path, sources: operation.sources)
        let report = try PlaceCall.wait { () throws(FileSystemError) in
            kind == .move ? await transfer.move(operation, events: events, journal: journal) : await transfer.copy(operation, events: events, journal: journal)
        }
        if !report.notDone.isEmpty {
            let what = kind == .move ? "moved" : "copied"
            StandardStream.write("qlbrowse: what was and was not \(what) is written in \(TerminalText.escaped(journal.path))\n", to: 2)
        }
        return report
    }
}
