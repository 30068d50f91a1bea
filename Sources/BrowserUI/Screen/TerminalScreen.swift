/// A screen the event loop runs on: the grid the views draw into, and the terminal's side of
/// it: taking the terminal and giving it back (around `$EDITOR`), its size and colours, and the
/// keys typed. `CursesScreen` is the real one; `RecordingScreen` plays keys a test gives it, so
/// `BrowserApp` runs in unit tests.
protocol TerminalScreen: Screen {
    /// Colours terminfo says the terminal has (0 before `start`).
    var colors: Int { get }
    /// Takes the terminal, with terminfo's `entry` when given; returns a note when it had to use another.
    func start(preferring entry: String?) -> String?
    /// Gives the terminal back for good.
    func stop()
    /// Reads the size again after a resize.
    func updateSize()
    /// Gives the terminal to a program in the foreground, and takes it back.
    func suspend()
    func resume()
    /// Keys read with the terminal's answers, to be read again as typed.
    func giveBack(_ keys: [UInt8])
    /// The next input event, nil when none is waiting.
    func readKey() -> KeyInput?
}

extension CursesScreen: TerminalScreen {}
