/// What a key means, decided in one place from the mode: text while typing, answers while a
/// question waits, otherwise the command the key map gives it, read for the screen in front.
/// Esc and Ctrl-C keep their meaning whatever the key map says, so a config can never lock the user in.
extension BrowserState {
    mutating func applyKey(_ key: KeyPress, _ command: Command?) -> [BrowserEffect] {
        // Esc while a stuck volume is awaited: give up on it, whatever is open.
        if key == .escape, waitingFor != nil { return reduce(.abandonWaiting) }
        guard let action = intention(for: key, command) else { return [] }
        return reduce(action)
    }

    /// The action a key stands for in the current mode, or nil when it means nothing here.
    public func intention(for key: KeyPress, _ command: Command?) -> BrowserAction? {
        switch mode {
        case .filtering:
            if key.isEnter { return .filterAccept }
            if key == .escape { return .filterCancel }
            if key.isBackspace { return .filterBackspace }
            if let text = key.typedText { return .filterInput(text) }
            if case .character = key { return nil }
        case .prompt:
            return promptIntention(for: key)
        case .finding:
            if key.isEnter { return .findAccept }
            if key == .escape { return .findCancel }
            if key.isBackspace { return .findBackspace }
            if key == .character(9) { return .findToggleInside }  // Tab
            switch key {
            case .special(.down), .character(14): return .findMove(1)  // ↓, Ctrl-N
            case .special(.up), .character(16): return .findMove(-1)  // ↑, Ctrl-P
            case .special(.pageDown): return .findMove(10)
            case .special(.pageUp): return .findMove(-10)
            default: break
            }
            if let text = key.typedText { return .findInput(text) }
            return nil
        case .awaitingKey:
            if key == .escape { return .cancelKeyQuestion }
            if let text = key.typedText, text.count == 1, text != " " { return .keyAnswer(text) }
            return nil
        case .overlay(let overlay) where overlay.isQuestion:
            return answer(to: overlay, key: key)
        case .overlay(.quickLook):
            if let edit = quickLook.edit {
                if let action = editIntention(for: key, command, edit) { return action }
                if edit.step != .choosing { return nil }  // the question or the saving waits for its keys
                // While editing, only Quick Look's own keys (paging, seeking, playing, a typed
                // position) work: a file operation or another file would drop the edit.
                let typed = key.typedText
                let seeks: Set<Command> = [.down, .up, .pageDown, .pageUp, .top, .bottom, .left, .right]
                guard command.map(seeks.contains) == true || typed == "p" || typed.map({ $0.count == 1 && $0.first!.isNumber && $0.first!.isASCII }) == true
                        || key.isEnter else { return nil }
            } else if key.typedText == "e" {
                return .editStart
            }
            if let text = key.typedText, text.count == 1, text.first!.isASCII, text.first!.isNumber { return .quickLookDigit(text) }
            if key.isEnter, !quickLook.jump.isEmpty { return .quickLookJump }
            if key.typedText == "w", quickLookContent == .text { return .quickLookToggleWrap }
            if key.typedText == "p", quickLookContent == .timeline { return .quickLookTogglePlay }
            if key.typedText == "p", quickLookContent == .picture, hasMotion { return .quickLookPlayMotion }
            if key.typedText == "m", let entry = selected, QuickLookContent.isContainer(entry.name) { return .quickLookToggleMembers }
            if canZoom, let text = key.typedText {
                switch text {
                case "+", "=": return .quickLookZoom(1)
                case "-": return .quickLookZoom(-1)
                case "h" where quickLook.zoom > 1: return .quickLookPan(x: -1, y: 0)
                case "l" where quickLook.zoom > 1: return .quickLookPan(x: 1, y: 0)
                case "k" where quickLook.zoom > 1: return .quickLookPan(x: 0, y: -1)
                case "j" where quickLook.zoom > 1: return .quickLookPan(x: 0, y: 1)
                default: break
                }
            }
        case .browsing:
            // 1–9 show that tab, unless the key map gives the digit a command.
            if command == nil, let text = key.typedText, let digit = Int(text), (1...9).contains(digit) { return .switchTab(digit - 1) }
        default:
            break
        }
        if key == .escape { return overlay != nil ? .closeOverlay : (filter.isEmpty ? nil : .filterCancel) }
        if key == .controlC { return .quit }
        return command.map(intention(for:))
    }

    /// What a command means on the screen in front.
    public func intention(for command: Command) -> BrowserAction {
        // `T` on a stick or share asks: Enter for the personal cache, s to also share the thumbnails there.
        if case .confirmBatch = overlay {
            if command == .open { return .confirmBatch(shared: false) }
            if command == .sort { return .confirmBatch(shared: true) }
        }
        let grid = view == .grid && overlay == nil, quickLook = overlay == .quickLook
        if quickLook {
            switch command {
            case .down: return .quickLookStep(1)
            case .up: return .quickLookStep(-1)
            case .pageDown: return .quickLookPage(1)
            case .pageUp: return .quickLookPage(-1)
            case .top: return .quickLookEdge(last: false)
            case .bottom: return .quickLookEdge(last: true)
            default: break
            }
        }
        switch command {
        case .down: return .moveDown(grid ? layout.gridColumns : 1)
        case .up: return .moveUp(grid ? layout.gridColumns : 1)
        case .left: return grid || quickLook ? .moveLeft : .parent
        case .right: return grid || quickLook ? .moveRight : .open
        case .parent: return .parent
        case .open: return quickLook ? .closeOverlay : .open
        case .top: return .home
        case .bottom: return .end
        case .pageDown: return .pageDown
        case .pageUp: return .pageUp
        case .filter: return .startFilter
        case .hidden: return .toggleHidden
        case .sort: return .cycleSort
        case .extensions: return .toggleExtensions
        case .view: return .toggleView
        // In the jobs panel, the Quick Look key pauses the job under the cursor.
        case .quickLook: return overlay == .jobs ? .togglePauseJob : .quickLook
        case .help: return .help
        case .quit: return overlay != nil ? .closeOverlay : .quit
        case .volumes: return overlay == .volumes ? .closeOverlay : .toggleVolumes
        case .batch: return .startBatch
        case .jobs: return overlay == .jobs ? .closeOverlay : .toggleJobs
        case .cancel: return .cancelJob
        case .mark: return .toggleMark
        case .invertMarks: return .invertMarks
        case .unmark: return .clearMarks
        case .copy: return .copyMarked
        case .cut: return .cutMarked
        case .paste: return .paste
        case .rename: return .startRename
        case .create: return .startCreate
        case .trash: return overlay == .bookmarks ? .deleteBookmark : .trashMarked
        case .delete: return .deleteMarked
        case .restore: return .restoreTrashed
        case .redraw: return .redraw
        case .bookmark: return .startBookmark
        case .jumpToBookmark: return .startJump
        case .bookmarks: return overlay == .bookmarks ? .closeOverlay : .toggleBookmarks
        case .back: return .historyBack
        case .forward: return .historyForward
        case .find: return .startFind
        case .undo: return .undo
        case .redo: return .redo
        case .bulkRename: return .startBulkRename
        case .newTab: return .newTab
        case .nextTab: return .stepTab(1)
        case .previousTab: return .stepTab(-1)
        case .closeTab: return .closeTab
        }
    }

    private func promptIntention(for key: KeyPress) -> BrowserAction? {
        if key.isEnter { return .promptAccept }
        if key == .escape { return .promptCancel }
        if key.isBackspace { return .promptBackspace }
        if let text = key.typedText { return .promptInput(text) }
        switch key {
        case .special(.left): return .promptMove(-1)
        case .special(.right): return .promptMove(1)
        case .special(.home): return .promptHome
        case .special(.end): return .promptEnd
        default: return nil
        }
    }

    /// o/s/k (capitals: for all the rest) for a taken name; y or Enter to delete for good, or to
    /// do a bulk rename.
    private func answer(to question: Overlay, key: KeyPress) -> BrowserAction? {
        if key == .escape { return .closeOverlay }
        if case .bulkRenamePlan(_, let plan) = question {
            guard plan.problems.isEmpty else { return key.isEnter || key.typedText == "q" ? .closeOverlay : nil }
            if key.isEnter || key.typedText == "y" { return .confirmBulkRename }
            return key.typedText == "n" || key.typedText == "q" ? .closeOverlay : nil
        }
        if case .confirmDelete = question {
            if key.isEnter { return .confirmDelete }
            switch key.typedText {
            case "y", "Y": return .confirmDelete
            case "n", "N", "q": return .closeOverlay
            default: return nil
            }
        }
        if key.isEnter { return .answerConflict(.keepBoth, applyToAll: false) }
        switch key.typedText {
        case "o": return .answerConflict(.overwrite, applyToAll: false)
        case "O": return .answerConflict(.overwrite, applyToAll: true)
        case "s": return .answerConflict(.skip, applyToAll: false)
        case "S": return .answerConflict(.skip, applyToAll: true)
        case "k": return .answerConflict(.keepBoth, applyToAll: false)
        case "K": return .answerConflict(.keepBoth, applyToAll: true)
        default: return nil
        }
    }
}
