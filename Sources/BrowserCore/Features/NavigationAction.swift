/// Moving the cursor and going in and out of folders (the list, the grid, and the panels' lists).
public enum NavigationAction: Sendable, Equatable {
    case moveDown(Int), moveUp(Int), moveLeft, moveRight
    case pageDown, pageUp, home, end
    case open, parent
    case click(row: Int, column: Int)
    case scroll(Int)
}
