/// What the user does: a key (as pressed, with the command the key map gives it), the mouse, the
/// terminal, or an intention a key stands for, nested by the feature it belongs to. Each feature
/// has its own action enum and its own reducer (`BrowserState+<Feature>.swift`).
///
/// Results of background work and the clock are another type, `BackgroundResult`: whether
/// something comes from the user is decided by its type (a user action clears the status
/// message, a background result never does), not by a list someone must remember to extend.
public enum BrowserAction: Sendable, Equatable {
    /// A key press and the command the user's key map binds it to; the mode decides what it does.
    case key(KeyPress, Command?)
    case navigation(NavigationAction)
    case display(DisplayAction)
    case filter(FilterAction)
    case quickLook(QuickLookAction)
    case edit(QuickEditAction)
    case find(FindAction)
    case files(FileAction)
    case prompt(PromptAction)
    case answer(AnswerAction)
    case places(PlacesAction)
    case tabs(TabAction)
    case jobs(JobsAction)
    case volumes(VolumesAction)
    case changes(ChangeAction)
    case screen(ScreenAction)
}
