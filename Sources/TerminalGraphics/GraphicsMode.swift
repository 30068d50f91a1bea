/// How pictures reach the terminal.
public enum GraphicsMode: String, Sendable, CaseIterable {
    /// Kitty's graphics protocol.
    case kitty
    /// DEC sixel (xterm -ti vt340, foot, mlterm, WezTerm, …).
    case sixel
    /// iTerm2's inline images (iTerm2, WezTerm).
    case iterm
    /// Block and border characters in 256 colours, drawn as ordinary cells: works everywhere.
    case symbols
    /// No pictures at all.
    case off = "none"

    /// Whether pictures are escape sequences written over the cells (rather than the cells themselves).
    public var isPixelProtocol: Bool { self == .kitty || self == .sixel || self == .iterm }

    /// Decides from what is known about the terminal: the user's choice first, then the
    /// environment, then the terminal's own answer to the primary device attributes query.
    ///
    /// Inside tmux (Debian's 3.3a has no sixel) pictures are drawn as symbols unless the user
    /// enabled passthrough and chose a protocol explicitly.
    public static func choose(requested: GraphicsMode?, environment: [String: String], deviceAttributes: [Int]?) -> GraphicsMode {
        if let requested { return requested }
        if environment["TMUX"] != nil || (environment["TERM"] ?? "").hasPrefix("tmux") || (environment["TERM"] ?? "").hasPrefix("screen") {
            return .symbols
        }
        let term = environment["TERM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" { return .kitty }
        if environment["TERM_PROGRAM"] == "WezTerm" { return .iterm }
        if environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return .iterm }
        if term == "dumb" || term.isEmpty { return .off }
        if let deviceAttributes, deviceAttributes.contains(4) { return .sixel }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") { return .sixel }
        return .symbols
    }

    /// The attribute numbers from a primary device attributes reply (`ESC [ ? 63 ; 1 ; 4 c`), or nil when the bytes are not one.
    public static func parseDeviceAttributes(_ reply: [UInt8]) -> [Int]? {
        guard let start = reply.firstIndex(of: 0x1B), reply.count > start + 3, reply[start + 1] == UInt8(ascii: "["),
              reply[start + 2] == UInt8(ascii: "?"), let end = reply[(start + 3)...].firstIndex(of: UInt8(ascii: "c")) else { return nil }
        let body = String(decoding: reply[(start + 3)..<end], as: UTF8.self)
        let numbers = body.split(separator: ";").compactMap { Int($0) }
        return numbers.isEmpty ? nil : numbers
    }
}
