import FileSystemKit
import SystemKit

/// Moving around: the cursor, folders in and out, the listing arriving, and giving up on a
/// stuck volume.
extension BrowserState {
    /// Cursor moves, clicks, the wheel, opening and going up.
    mutating func reduce(_ action: NavigationAction) -> [BrowserEffect] {
        switch action {
        case .open, .parent: break
        default:
            navigation.cursorFollowsEntry = true
            navigation.cursorFollowsEnd = action == .end
        }
        switch action {
        case .moveDown(let count): moveCursor(to: cursor + count)
        case .moveUp(let count): moveCursor(to: cursor - count)
        case .moveLeft: if view == .grid { moveCursor(to: cursor - 1) } else { return parent() }
        case .moveRight: if view == .grid { moveCursor(to: cursor + 1) } else { return open() }
        case .pageDown: moveCursor(to: cursor + layout.pageSize(view))
        case .pageUp: moveCursor(to: cursor - layout.pageSize(view))
        case .home: moveCursor(to: 0)
        case .end: moveCursor(to: navigation.order.count - 1)
        case .open: return open()
        case .parent: return parent()
        case .click(let row, let column): click(row: row, column: column)
        case .scroll(let delta): moveCursor(to: cursor + delta * (view == .grid ? layout.gridColumns : 3))
        }
        return []
    }

    private mutating func open() -> [BrowserEffect] {
        guard let entry = selected else { return [] }
        let path = entry.path(in: folder)
        if entry.isDirectory { return enter(path, select: nil) }
        return [.openFile(path: path, kind: entry.kind)]
    }

    private mutating func parent() -> [BrowserEffect] {
        // A remote place's root (`ssh://host`) has no parent, as `/` has none.
        guard folder != "/", !PlacePath.isRoot(folder) else { return [] }
        let slash = folder.lastIndex(of: "/")!
        let name = Array(folder[folder.index(after: slash)...].utf8)
        let up = slash == folder.startIndex ? "/" : String(folder[..<slash])
        return enter(up, select: name)
    }

    /// Goes to `path` and lists it; the cursor lands on `name` when it arrives. A new folder goes
    /// into the history unless the history itself is being walked (`recordsHistory` false).
    mutating func enter(_ path: String, select name: [UInt8]?, recordsHistory: Bool = true) -> [BrowserEffect] {
        if recordsHistory {
            history.leave(selecting: selected?.nameBytes)
            history.visit(path)
        }
        previousNavigation = navigation
        navigation = Navigation(folder: path, select: name)
        relisting = nil
        ticket += 1
        if mode == .filtering || prompt != nil { mode = .browsing }
        waitingFor = nil
        banner = nil
        listingProgressAt = now
        return [.list(folder: path, ticket: ticket)]
    }

    /// Esc while a stuck volume is awaited: the listing is given up and the user is back where
    /// they were. Only navigation goes back; jobs, volumes and the trash keep what arrived meanwhile.
    mutating func abandonWaiting() -> [BrowserEffect] {
        guard let volume = waitingFor, let previous = previousNavigation else { return [] }
        navigation = previous
        previousNavigation = nil
        waitingFor = nil
        ticket += 1  // late answers of the abandoned listing are dropped
        var effects: [BrowserEffect] = [.cancelListing]
        // A folder left before its listing ended is listed again.
        if !listingComplete {
            navigation = Navigation(folder: previous.folder, select: previous.pendingSelection ?? selected?.nameBytes)
            listingProgressAt = now
            effects.append(.list(folder: folder, ticket: ticket))
        }
        message = "stopped waiting for \(volume)"
        return effects
    }

    /// Lists the current folder again, the cursor going back to `name` when it is still there.
    /// The listing on screen stays, and keys act on it, until the new one is all in
    /// (`Relisting`). The filter stays (the header shows it): a copy that ends while the user
    /// types or reads a filter must not take it away. What must be seen (`showsAll`: a rename, a
    /// new file, an undo, a restore, an edit's copy) clears a filter the user is not typing and
    /// has not set since the relisting was asked for.
    mutating func reloadFolder(select name: [UInt8]?, showsAll: Bool = false) -> [BrowserEffect] {
        relist(select: name, showsAll: showsAll, keepsMarks: false)
    }

    /// The folder changed by itself (its watch): listed again as `reloadFolder` does, but the
    /// names marked stay too.
    mutating func refreshFolder() -> [BrowserEffect] {
        relist(select: nil, showsAll: false, keepsMarks: true)
    }

    private mutating func relist(select name: [UInt8]?, showsAll: Bool, keepsMarks: Bool) -> [BrowserEffect] {
        ticket += 1
        relisting = Relisting(ticket: ticket, select: name, showsAll: showsAll, filterAsked: navigation.filter, keepsMarks: keepsMarks)
        listingProgressAt = now
        return [.list(folder: folder, ticket: ticket)]
    }

    /// A batch of the folder listed again; the last one puts the new listing in place of the old,
    /// keeping what the user set (the filter, the marks, the scroll) as the relisting asked. A
    /// listing shown while still arriving is replaced by the first batch instead, and the rest
    /// streams in as a first listing does (a huge folder on a slow share keeps showing progress).
    mutating func receiveRelisting(_ batch: EntryStore, complete: Bool) {
        guard var pending = relisting else { return }
        pending.store.append(contentsOf: batch)
        guard complete || !navigation.listingComplete else {
            relisting = pending
            return
        }
        relisting = nil
        var fresh = Navigation(folder: folder, select: pending.select ?? selected?.nameBytes)
        let clearsFilter = pending.showsAll && mode != .filtering && navigation.filter == pending.filterAsked
        fresh.filter = clearsFilter ? "" : navigation.filter
        if pending.keepsMarks { fresh.marked = navigation.marked }
        fresh.top = navigation.top
        navigation = fresh
        receive(pending.store, complete: complete)
    }

    /// The volume under the current folder is gone: say so and move to the folder it was mounted
    /// in (on another volume, so reachable); its jobs stop.
    mutating func leave(vanished volume: Volume) -> [BrowserEffect] {
        let stops = stopJobs { volume.contains($0.folder) ? volume : nil }
        let parent = String(volume.mountPoint[..<(volume.mountPoint.lastIndex(of: "/") ?? volume.mountPoint.startIndex)])
        return stops + reduce(.volumeGone(label: volume.label, fallback: parent.isEmpty ? "/" : parent))
    }

    private mutating func click(row: Int, column: Int) {
        let bodyRow = row - layout.bodyTop
        guard bodyRow >= 0, bodyRow < layout.bodyRows else { return }
        let index: Int
        if view == .list {
            guard column < layout.listWidth else { return }
            index = top + bodyRow
        } else {
            let gridRow = bodyRow / layout.tileHeight, gridColumn = column / layout.tileWidth
            guard gridColumn < layout.gridColumns else { return }
            index = (top + gridRow) * layout.gridColumns + gridColumn
        }
        guard navigation.order.indices.contains(index) else { return }
        moveCursor(to: index)
    }

    // MARK: The listing

    /// A batch of the listing arrived: merged into what is shown, the cursor kept on its entry.
    mutating func receive(_ batch: EntryStore, complete: Bool) {
        let firstChunk = navigation.store.chunkCount
        let repacked = navigation.store.append(contentsOf: batch)
        navigation.listingComplete = complete
        // A Live Photo's movie is shown through its still, whichever of the two came first.
        var paired: [[UInt8]] = []
        for name in batch.pictureAndVideoNames(inChunks: 0..<batch.chunkCount) {
            if let movie = navigation.livePhotos.add(name) { paired.append(movie) }
        }
        if repacked { refresh(keeping: selected?.nameBytes) } else { merge(chunks: firstChunk..<navigation.store.chunkCount) }
        if !paired.isEmpty {
            let keep = selected?.nameBytes
            navigation.order.removeAll { handle in paired.contains { navigation.store.hasName(handle, $0) } }
            if let keep, let index = navigation.store.position(of: keep, in: navigation.order) { navigation.cursor = index }
            moveCursor(to: cursor)
        }
        if let name = navigation.pendingSelection, let index = navigation.store.position(of: name, in: navigation.order) {
            moveCursor(to: index)
            navigation.pendingSelection = nil
            navigation.cursorFollowsEntry = true
        }
        if complete { navigation.pendingSelection = nil }
    }

    /// Recomputes the shown order from the store, keeping the cursor on `name` when it is still there.
    mutating func refresh(keeping name: [UInt8]?) {
        let store = navigation.store
        navigation.order = withoutLiveMovies(store.shownHandles(inChunks: 0..<store.chunkCount, showHidden: showHidden, needle: Array(filter.lowercased().utf8)))
        store.sort(&navigation.order, by: sort)
        if let name, let index = store.position(of: name, in: navigation.order) { navigation.cursor = index }
        moveCursor(to: cursor)
    }

    /// Adds the store's new chunks (a listing batch) to the shown order by merging (no full re-sort
    /// per batch), keeping the cursor on the entry it was on.
    private mutating func merge(chunks: Range<Int>) {
        let store = navigation.store
        var incoming = withoutLiveMovies(store.shownHandles(inChunks: chunks, showHidden: showHidden, needle: Array(filter.lowercased().utf8)))
        store.sort(&incoming, by: sort)
        let merged = store.merge(incoming, into: navigation.order, by: sort, cursor: cursor)
        navigation.order = merged.order
        moveCursor(to: navigation.cursorFollowsEnd ? navigation.order.count - 1 : navigation.cursorFollowsEntry ? merged.cursor : cursor)
    }

    /// `handles` without the movies of Live Photos (their stills stand for them).
    private func withoutLiveMovies(_ handles: [EntryHandle]) -> [EntryHandle] {
        guard navigation.livePhotos.count > 0 else { return handles }
        return handles.filter { !navigation.livePhotos.isMovieOfAPair(navigation.store.name($0)) }
    }

    mutating func moveCursorBy(_ offset: Int) { moveCursor(to: cursor + offset) }

    mutating func moveCursor(to index: Int) {
        let count = navigation.order.count
        navigation.cursor = count == 0 ? 0 : min(max(index, 0), count - 1)
        scrollToCursor()
    }

    /// Keeps the cursor on screen, scrolling as little as possible.
    mutating func scrollToCursor() {
        var top = navigation.top
        if view == .list {
            let rows = layout.bodyRows
            if cursor < top { top = cursor }
            if cursor >= top + rows { top = cursor - rows + 1 }
            top = max(0, min(top, max(0, navigation.order.count - rows)))
        } else {
            let row = cursor / layout.gridColumns
            if row < top { top = row }
            if row >= top + layout.gridRows { top = row - layout.gridRows + 1 }
            top = max(0, top)
        }
        navigation.top = top
    }

    /// The indices of the entries on screen.
    public var visibleRange: Range<Int> {
        let count = navigation.order.count
        let first = view == .list ? top : top * layout.gridColumns
        return min(first, count)..<min(first + layout.pageSize(view), count)
    }
}
