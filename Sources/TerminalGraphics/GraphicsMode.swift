/// How pictures reach the terminal: one driver each (`Drivers/`).
public enum GraphicsMode: String, Sendable, CaseIterable {
    /// Kitty's graphics protocol, pictures placed by id (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// Kitty's Unicode placeholders: text cells that name a transmitted picture (kitty 0.28+,
    /// Ghostty). The one kitty method that survives tmux.
    case kittyPlaceholders = "kitty-placeholders"
    /// DEC sixel (xterm -ti vt340, foot, mlterm, WezTerm, …).
    case sixel
    /// iTerm2's inline images (iTerm2, WezTerm).
    case iterm
    /// Block and border characters in colour: works everywhere.
    case symbols
    /// No pictures at all.
    case off = "none"

    /// The attribute numbers from a primary device attributes reply (`ESC [ ? 63 ; 1 ; 4 c`), or nil when the bytes hold none.
    public static func parseDeviceAttributes(_ reply: [UInt8]) -> [Int]? {
        var search = reply.startIndex
        while let start = reply[search...].firstIndex(of: 0x1B) {
            if reply.count > start + 3, reply[start + 1] == UInt8(ascii: "["), reply[start + 2] == UInt8(ascii: "?"),
               let end = reply[(start + 3)...].firstIndex(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) && $0 != UInt8(ascii: ";") }),
               reply[end] == UInt8(ascii: "c") {
                let numbers = String(decoding: reply[(start + 3)..<end], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
                if !numbers.isEmpty { return numbers }
            }
            search = start + 1
        }
        return nil
    }
}
