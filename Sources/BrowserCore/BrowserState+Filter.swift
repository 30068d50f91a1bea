/// The filter typed after `/`: the shown entries narrow as the user types.
extension BrowserState {
    /// `/`: a new filter, as in ranger and yazi: a kept filter is replaced, not typed onto (the
    /// list shows everything again, the selection kept, until something is typed).
    mutating func startFilter() {
        mode = .filtering
        guard !filter.isEmpty else { return }
        navigation.filter = ""
        refresh(keeping: selected?.nameBytes)
    }

    /// The filter's actions: typing while the filter is typed; outside it, `/` starts one and
    /// Esc clears the one kept.
    mutating func reduce(_ action: FilterAction) -> [BrowserEffect] {
        guard mode == .filtering || action == .start else {
            if action == .cancel {
                navigation.filter = ""
                refresh(keeping: selected?.nameBytes)
            }
            return []
        }
        switch action {
        case .start:
            startFilter()
            return []
        case .input(let text):
            navigation.filter += text
        case .backspace:
            if filter.isEmpty { mode = .browsing } else { navigation.filter.removeLast() }
        case .accept:
            mode = .browsing
            return []
        case .cancel:
            mode = .browsing
            navigation.filter = ""
        }
        refresh(keeping: nil)
        navigation.cursor = 0
        navigation.top = 0
        return []
    }
}
