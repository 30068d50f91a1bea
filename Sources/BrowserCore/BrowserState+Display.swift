/// How the listing is shown: hidden files, the sort, list or grid, extensions.
extension BrowserState {
    mutating func reduce(_ action: DisplayAction) {
        switch action {
        case .toggleHidden:
            showHidden.toggle()
            message = showHidden ? "showing hidden files" : "hiding hidden files"
            refresh(keeping: selected?.nameBytes)
        case .cycleSort:
            sort = sort.next
            message = "sorted by \(sort.rawValue)"
            refresh(keeping: selected?.nameBytes)
        case .toggleView:
            view = view == .list ? .grid : .list
            navigation.top = 0
            scrollToCursor()
        case .toggleExtensions: showExtensions.toggle()
        }
    }
}
