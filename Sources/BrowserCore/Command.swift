/// What a key can ask for, whatever the screen, nested by feature; the names (`rawValue`) are the
/// ones config.toml uses. The state decides what a command means in the mode it is in
/// (`BrowserState.intention(for:)`).
public enum Command: Sendable, Hashable, CaseIterable, RawRepresentable {
    case move(Move)
    case list(List)
    case screen(Screen)
    case jobs(Jobs)
    case files(Files)
    case places(Places)
    case tabs(Tabs)

    /// The cursor and folders.
    public enum Move: String, Sendable, CaseIterable {
        case down, up, left, right, parent, open, top, bottom
        case pageDown = "page-down", pageUp = "page-up"
    }

    /// What the listing shows and how.
    public enum List: String, Sendable, CaseIterable {
        case filter, hidden, sort, extensions, view
    }

    /// What is over the listing, and the program itself.
    public enum Screen: String, Sendable, CaseIterable {
        case quickLook = "quick-look", help, quit, volumes, redraw, reload
    }

    /// Background jobs.
    public enum Jobs: String, Sendable, CaseIterable {
        case batch = "thumbnail-folder", jobs, cancel
    }

    /// Marks and file operations, and taking them back.
    public enum Files: String, Sendable, CaseIterable {
        case mark, invertMarks = "invert-marks", unmark = "clear-marks", copy, cut, paste, rename, create, trash
        case delete, restore, undo, redo, bulkRename = "bulk-rename"
    }

    /// Places: bookmarks, the history, finding below here.
    public enum Places: String, Sendable, CaseIterable {
        case bookmark, jumpToBookmark = "jump-to-bookmark", bookmarks, back, forward, find
    }

    /// Tabs.
    public enum Tabs: String, Sendable, CaseIterable {
        case newTab = "new-tab", nextTab = "next-tab", previousTab = "previous-tab", closeTab = "close-tab"
    }

    public static let allCases: [Command] = Move.allCases.map(Command.move) + List.allCases.map(Command.list)
        + Screen.allCases.map(Command.screen) + Jobs.allCases.map(Command.jobs) + Files.allCases.map(Command.files)
        + Places.allCases.map(Command.places) + Tabs.allCases.map(Command.tabs)

    /// The command's name in config.toml.
    public var rawValue: String {
        switch self {
        case .move(let command): return command.rawValue
        case .list(let command): return command.rawValue
        case .screen(let command): return command.rawValue
        case .jobs(let command): return command.rawValue
        case .files(let command): return command.rawValue
        case .places(let command): return command.rawValue
        case .tabs(let command): return command.rawValue
        }
    }

    /// The command config.toml names `rawValue`, or nil.
    public init?(rawValue: String) {
        guard let command = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = command
    }
}
