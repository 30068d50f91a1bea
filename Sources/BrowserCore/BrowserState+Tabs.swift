/// Tabs: `t` opens one on this folder, `1`–`9` and `[`/`]` switch, `w` closes. Switching keeps
/// the tab left as it was (cursor, filter, sort, view, history) and lists the one shown again,
/// so it is never stale.
extension BrowserState {
    /// Tab actions.
    mutating func reduce(_ action: TabAction) -> [BrowserEffect] {
        switch action {
        case .new:
            guard tabs.count < Self.tabLimit else {
                message = "\(Self.tabLimit) tabs at most (w closes one)"
                return []
            }
            if tabs.isEmpty { tabs = [snapshot()] } else { tabs[currentTab] = snapshot() }
            tabs.insert(snapshot(), at: currentTab + 1)
            currentTab += 1
            message = "tab \(currentTab + 1) of \(tabs.count): w closes it, [ ] and 1–9 switch"
        case .show(let index):
            guard tabs.indices.contains(index) else {
                message = tabs.isEmpty ? "one tab only: t opens another" : "no tab \(index + 1) (there are \(tabs.count))"
                return []
            }
            return show(tab: index)
        case .step(let step):
            guard tabs.count > 1 else {
                message = "one tab only: t opens another"
                return []
            }
            return show(tab: (currentTab + step + tabs.count) % tabs.count)
        case .close:
            guard tabs.count > 1 else {
                message = "this is the only tab (q quits)"
                return []
            }
            tabs.remove(at: currentTab)
            let next = min(currentTab, tabs.count - 1)
            currentTab = next
            let effects = restore(tabs[next])
            if tabs.count == 1 { tabs = [] }
            return effects
        }
        return []
    }

    /// Tabs open at most (1–9 reach them all).
    static let tabLimit = 9

    private mutating func show(tab index: Int) -> [BrowserEffect] {
        guard index != currentTab else { return [] }
        tabs[currentTab] = snapshot()
        currentTab = index
        return restore(tabs[index])
    }

    private func snapshot() -> BrowserTab {
        BrowserTab(folder: folder, selection: selected?.nameBytes ?? navigation.pendingSelection, filter: filter, sort: sort, view: view,
                   showHidden: showHidden, history: history)
    }

    private mutating func restore(_ tab: BrowserTab) -> [BrowserEffect] {
        (sort, view, showHidden, history) = (tab.sort, tab.view, tab.showHidden, tab.history)
        let effects = enter(tab.folder, select: tab.selection, recordsHistory: false)
        navigation.filter = tab.filter
        return effects
    }
}
