/// `t` opens a tab on this folder; `1`–`9` show tab N (0-based here); `[`/`]` the one before or
/// after; `w` closes the one shown.
public enum TabAction: Sendable, Equatable {
    case new, show(Int), step(Int), close
}
