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

    /// Typing the filter; nil for what typing does not take (arrows still move).
    mutating func applyFiltering(_ action: BrowserAction) -> [BrowserEffect]? {
        switch action {
        case .filterInput(let text):
            navigation.filter += text
        case .filterBackspace:
            if filter.isEmpty { mode = .browsing } else { navigation.filter.removeLast() }
        case .filterAccept:
            mode = .browsing
            return []
        case .filterCancel:
            mode = .browsing
            navigation.filter = ""
        default:
            return nil
        }
        refresh(keeping: nil)
        navigation.cursor = 0
        navigation.top = 0
        return []
    }
}
