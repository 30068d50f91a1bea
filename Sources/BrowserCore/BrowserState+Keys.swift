/// What a key means, decided in one place from the mode: text while typing, answers while a
/// question waits, otherwise the command the key map gives it, read for the screen in front.
/// Esc and Ctrl-C keep their meaning whatever the key map says, so a config can never lock the user in.
extension BrowserState {
    mutating func applyKey(_ key: KeyPress, _ command: Command?) -> [BrowserEffect] {
        // Esc while a stuck volume is awaited: give up on it, whatever is open.
        if key == .escape, waitingFor != nil { return abandonWaiting() }
        if key == .escape, mode == .browsing, volumeState.busyWith != nil { return reduce(.volumes(.cancelConnect)) }
        guard let action = intention(for: key, command) else { return [] }
        return reduce(action)
    }

    /// The action a key stands for in the current mode, or nil when it means nothing here.
    public func intention(for key: KeyPress, _ command: Command?) -> BrowserAction? {
        switch mode {
        case .filtering:
            if key.isEnter { return .filter(.accept) }
            if key == .escape { return .filter(.cancel) }
            if key.isBackspace { return .filter(.backspace) }
            if let text = key.typedText { return .filter(.input(text)) }
            if case .character = key { return nil }
        case .prompt:
            return promptIntention(for: key)
        case .finding:
            if key.isEnter { return .find(.accept) }
            if key == .escape { return .find(.cancel) }
            if key.isBackspace { return .find(.backspace) }
            if key == .character(9) { return .find(.toggleInside) }  // Tab
            switch key {
            case .special(.down), .character(14): return .find(.move(1))  // ↓, Ctrl-N
            case .special(.up), .character(16): return .find(.move(-1))  // ↑, Ctrl-P
            case .special(.pageDown): return .find(.move(10))
            case .special(.pageUp): return .find(.move(-10))
            default: break
            }
            if let text = key.typedText { return .find(.input(text)) }
            return nil
        case .awaitingKey:
            if key == .escape { return .places(.cancelKeyQuestion) }
            if key.isEnter, case .awaitingKey(.keepPassword) = mode { return .places(.cancelKeyQuestion) }  // N is the default
            if case .awaitingKey(.deleteSourcesForGood) = mode, key.typedText?.count != 1 || key.typedText == " " {
                return .places(.cancelKeyQuestion)  // any other key (Enter, an arrow) moves nothing
            }
            if let text = key.typedText, text.count == 1, text != " " { return .places(.keyAnswer(text)) }
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
                let seeks: Set<Command.Move> = [.down, .up, .pageDown, .pageUp, .top, .bottom, .left, .right]
                guard command.map({ if case .move(let move) = $0 { seeks.contains(move) } else { false } }) == true || typed == "p" || typed.map({ $0.count == 1 && $0.first!.isNumber && $0.first!.isASCII }) == true
                        || key.isEnter else { return nil }
            } else if key.typedText == "e" {
                return .edit(.start)
            }
            if let text = key.typedText, text.count == 1, text.first!.isASCII, text.first!.isNumber { return .quickLook(.digit(text)) }
            if key.isEnter, !quickLook.jump.isEmpty { return .quickLook(.jump) }
            if key.typedText == "w", quickLookContent == .text { return .quickLook(.toggleWrap) }
            if key.typedText == "p", quickLookContent == .timeline { return .quickLook(.togglePlay) }
            if key.typedText == "p", quickLookContent == .picture, hasMotion { return .quickLook(.playMotion) }
            if key.typedText == "m", let entry = selected, QuickLookContent.isContainer(entry.name) { return .quickLook(.toggleMembers) }
            if canZoom, let text = key.typedText {
                switch text {
                case "+", "=": return .quickLook(.zoom(1))
                case "-": return .quickLook(.zoom(-1))
                case "h" where quickLook.zoom > 1: return .quickLook(.pan(x: -1, y: 0))
                case "l" where quickLook.zoom > 1: return .quickLook(.pan(x: 1, y: 0))
                case "k" where quickLook.zoom > 1: return .quickLook(.pan(x: 0, y: -1))
                case "j" where quickLook.zoom > 1: return .quickLook(.pan(x: 0, y: 1))
                default: break
                }
            }
        case .overlay(.volumes) where key.typedText == "E": return .volumes(.eject)
        case .overlay(.volumes) where key.typedText == "C": return .volumes(.connect)
        case .browsing:
            // 1–9 show that tab, unless the key map gives the digit a command.
            if command == nil, let text = key.typedText, let digit = Int(text), (1...9).contains(digit) { return .tabs(.show(digit - 1)) }
        default:
            break
        }
        if key == .escape { return overlay != nil ? .screen(.closeOverlay) : (filter.isEmpty ? nil : .filter(.cancel)) }
        if key == .controlC { return .screen(.quit) }
        return command.map(intention(for:))
    }

    /// What a command means on the screen in front.
    public func intention(for command: Command) -> BrowserAction {
        // `T` on a stick or share asks: Enter for the personal cache, s to also share the thumbnails there.
        if case .confirmBatch = overlay {
            if command == .move(.open) { return .jobs(.confirmBatch(shared: false)) }
            if command == .list(.sort) { return .jobs(.confirmBatch(shared: true)) }
        }
        switch command {
        case .move(let move): return intention(for: move)
        case .list(let list):
            switch list {
            case .filter: return .filter(.start)
            case .hidden: return .display(.toggleHidden)
            case .sort: return .display(.cycleSort)
            case .extensions: return .display(.toggleExtensions)
            case .view: return .display(.toggleView)
            }
        case .screen(let screen):
            switch screen {
            // In the jobs panel, the Quick Look key pauses the job under the cursor.
            case .quickLook: return overlay == .jobs ? .jobs(.togglePause) : .quickLook(.open)
            case .help: return .screen(.help)
            case .quit: return overlay != nil ? .screen(.closeOverlay) : .screen(.quit)
            case .volumes: return overlay == .volumes ? .screen(.closeOverlay) : .volumes(.toggle)
            case .redraw: return .screen(.redraw)
            case .reload: return .screen(.reload)
            }
        case .jobs(let jobs):
            switch jobs {
            case .batch: return .jobs(.startBatch)
            case .jobs: return overlay == .jobs ? .screen(.closeOverlay) : .jobs(.toggle)
            case .cancel: return .jobs(.cancel)
            }
        case .files(let files): return intention(for: files)
        case .places(let places):
            switch places {
            case .bookmark: return .places(.startBookmark)
            case .jumpToBookmark: return .places(.startJump)
            case .bookmarks: return overlay == .bookmarks ? .screen(.closeOverlay) : .places(.toggleBookmarks)
            case .back: return .places(.historyBack)
            case .forward: return .places(.historyForward)
            case .find: return .find(.start)
            }
        case .tabs(let tabs):
            switch tabs {
            case .newTab: return .tabs(.new)
            case .nextTab: return .tabs(.step(1))
            case .previousTab: return .tabs(.step(-1))
            case .closeTab: return .tabs(.close)
            }
        }
    }

    /// The cursor keys: Quick Look pages, seeks and scrolls with them; the grid moves in two
    /// directions; the list goes in and out of folders with ← and →.
    private func intention(for move: Command.Move) -> BrowserAction {
        let grid = view == .grid && overlay == nil, quickLook = overlay == .quickLook
        if quickLook {
            switch move {
            case .down: return .quickLook(.step(1))
            case .up: return .quickLook(.step(-1))
            case .pageDown: return .quickLook(.page(1))
            case .pageUp: return .quickLook(.page(-1))
            case .top: return .quickLook(.edge(last: false))
            case .bottom: return .quickLook(.edge(last: true))
            default: break
            }
        }
        switch move {
        case .down: return .navigation(.moveDown(grid ? layout.gridColumns : 1))
        case .up: return .navigation(.moveUp(grid ? layout.gridColumns : 1))
        case .left: return .navigation(grid || quickLook ? .moveLeft : .parent)
        case .right: return .navigation(grid || quickLook ? .moveRight : .open)
        case .parent: return .navigation(.parent)
        case .open: return quickLook ? .screen(.closeOverlay) : .navigation(.open)
        case .top: return .navigation(.home)
        case .bottom: return .navigation(.end)
        case .pageDown: return .navigation(.pageDown)
        case .pageUp: return .navigation(.pageUp)
        }
    }

    /// Marks and file operations; in the bookmarks list the trash key deletes the bookmark.
    private func intention(for files: Command.Files) -> BrowserAction {
        switch files {
        case .mark: return .files(.toggleMark)
        case .invertMarks: return .files(.invertMarks)
        case .unmark: return .files(.clearMarks)
        case .copy: return .files(.copyMarked)
        case .cut: return .files(.cutMarked)
        case .paste: return .files(.paste)
        case .rename: return .files(.startRename)
        case .create: return .files(.startCreate)
        case .trash: return overlay == .bookmarks ? .places(.deleteBookmark) : .files(.trashMarked)
        case .delete: return .files(.deleteMarked)
        case .restore: return .files(.restoreTrashed)
        case .undo: return .changes(.undo)
        case .redo: return .changes(.redo)
        case .bulkRename: return .changes(.startBulkRename)
        }
    }

    func promptIntention(for key: KeyPress) -> BrowserAction? {
        if key.isEnter { return .prompt(.accept) }
        if prompt?.purpose == .connect, key == .special(.up) || key == .special(.down) { return .volumes(.recentServer(key == .special(.up) ? 1 : -1)) }
        if key == .escape { return .prompt(.cancel) }
        if key.isBackspace { return .prompt(.backspace) }
        if let text = key.typedText { return .prompt(.input(text)) }
        switch key {
        case .special(.left): return .prompt(.move(-1))
        case .special(.right): return .prompt(.move(1))
        case .special(.home): return .prompt(.home)
        case .special(.end): return .prompt(.end)
        default: return nil
        }
    }

    /// o/s/k (capitals: for all the rest) for a taken name; y or Enter to delete for good, or to
    /// do a bulk rename.
    private func answer(to question: Overlay, key: KeyPress) -> BrowserAction? {
        if key == .escape { return .screen(.closeOverlay) }
        if case .bulkRenamePlan(_, let plan) = question {
            guard plan.problems.isEmpty else { return key.isEnter || key.typedText == "q" ? .screen(.closeOverlay) : nil }
            if key.isEnter || key.typedText == "y" { return .answer(.confirmBulkRename) }
            return key.typedText == "n" || key.typedText == "q" ? .screen(.closeOverlay) : nil
        }
        if case .confirmDelete = question {
            if key.isEnter { return .answer(.confirmDelete) }
            switch key.typedText {
            case "y", "Y": return .answer(.confirmDelete)
            case "n", "N", "q": return .screen(.closeOverlay)
            default: return nil
            }
        }
        if key.isEnter { return .answer(.conflict(.keepBoth, applyToAll: false)) }
        switch key.typedText {
        case "o": return .answer(.conflict(.overwrite, applyToAll: false))
        case "O": return .answer(.conflict(.overwrite, applyToAll: true))
        case "s": return .answer(.conflict(.skip, applyToAll: false))
        case "S": return .answer(.conflict(.skip, applyToAll: true))
        case "k": return .answer(.conflict(.keepBoth, applyToAll: false))
        case "K": return .answer(.conflict(.keepBoth, applyToAll: true))
        default: return nil
        }
    }
}
