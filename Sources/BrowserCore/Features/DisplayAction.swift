/// How the listing is shown: hidden files, the sort, list or grid, extensions.
public enum DisplayAction: Sendable, Equatable {
    case toggleHidden, cycleSort, toggleView, toggleExtensions
}
