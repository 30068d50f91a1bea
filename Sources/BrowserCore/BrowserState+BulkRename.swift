import FileSystemKit

/// `R`: the marked names (or every name shown) edited in `$EDITOR`, one per line; the result is
/// checked (clashes, names the volume refuses, a line added or lost) and shown as a plan, then
/// done all at once or not at all. `z` and `Z` take back and do again any file operation.
extension BrowserState {
    /// Bulk rename and undo actions.
    mutating func reduce(_ action: ChangeAction) -> [BrowserEffect] {
        switch action {
        case .undo: return [.undo]
        case .redo: return [.redo]
        case .startBulkRename:
            let chosen = marked.isEmpty ? entries.map(\.name) : entries.filter { marked.contains($0.nameBytes) }.map(\.name)
            // A name with a line break cannot be one line of the list.
            let names = chosen.filter { !$0.contains("\n") && !$0.contains("\r") }
            guard !names.isEmpty else {
                message = "nothing to rename here"
                return []
            }
            if names.count < chosen.count { message = "names with line breaks are left out" }
            return [.editNames(folder: folder, names: names)]
        }
    }

    /// What came back from the editor for the names of `edited` (nil lines: not saved).
    mutating func namesEdited(in edited: String, names: [String], edited lines: [String]?) -> [BrowserEffect] {
        guard edited == folder else { return [] }
        guard let lines else {
            message = "the editor did not save the list: nothing renamed"
            return []
        }
        let renamed = Set(names)
        let others = Set(store.handles.map { store.entry($0).name }.filter { !renamed.contains($0) })
        let plan = BulkRenamePlan(names: names, edited: lines, others: others, capabilities: currentVolume.flatMap { capabilities[$0.mountPoint] })
        if plan.problems.isEmpty && plan.changes.isEmpty {
            message = "no name changed"
            return []
        }
        mode = .overlay(.bulkRenamePlan(folder: folder, plan))
        return currentVolume.map { capabilities[$0.mountPoint] == nil ? [.probeCapabilities($0)] : [] } ?? []
    }
}
