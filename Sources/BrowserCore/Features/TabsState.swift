/// The tabs feature's state: the open tabs in order (empty while there is one; the one shown
/// is kept up to date only when left) and which is shown.
public struct TabsState: Sendable, Equatable {
    public internal(set) var list: [BrowserTab] = []
    public internal(set) var current = 0
}
