import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal what it can do, before the screen is taken over. One write carries every
/// question (XTVERSION, kitty's graphics query, the sixel geometry — current, then the largest —
/// then the primary device attributes, which every
/// terminal answers), so the answers end with the device attributes and the probe returns as
/// soon as they are in: one round trip, also over SSH. A terminal that answers nothing costs
/// `timeoutMilliseconds`. Inside tmux the questions go through the passthrough to the outer
/// terminal (tmux answers the device attributes itself otherwise).
public enum TerminalProbe {
    /// The terminal's cell size in pixels (from TIOCGWINSZ; a common default when it does not say).
    public static func cellSize(fd: Int32 = 1) -> CellSize {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_xpixel > 0, size.ws_ypixel > 0, size.ws_col > 0, size.ws_row > 0 {
            return CellSize(width: Int(size.ws_xpixel) / Int(size.ws_col), height: Int(size.ws_ypixel) / Int(size.ws_row))
        }
        return CellSize(width: 10, height: 20)
    }

    /// Everything known about the terminal: the environment, tmux's view, and the terminal's answers.
    /// `asks` false skips the questions (there is no terminal to ask, or nothing to find out);
    /// `graphics` false asks only what the text needs (colours, name): the user chose the driver.
    public static func facts(environment: [String: String], asks: Bool, graphics: Bool = true, timeoutMilliseconds: Int32? = nil) -> TerminalFacts {
        // Every terminal answers the device attributes at once; the wait is for ones that do not,
        // longer over SSH, where the answer makes a round trip.
        let overSSH = environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil
        let timeoutMilliseconds = timeoutMilliseconds ?? (overSSH ? 1000 : 300)
        var facts = TerminalFacts(environment: environment)
        let tmux = TmuxClient(environment: environment)
        if let tmux { facts.tmux = tmux.facts() }
        guard asks else { return facts }
        // The colours (OSC 10, 11; ended by BEL, which every terminal that answers accepts):
        // inside tmux asked of tmux itself, which answers from what it knows of the outer
        // terminal (an answer through the passthrough would be taken by tmux).
        let colours = Array("\u{1B}]10;?\u{07}\u{1B}]11;?\u{07}".utf8)
        let graphicsQuestions = graphics ? "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[?2;1;0S\u{1B}[?2;4;0S" : ""
        let questions = Array("\u{1B}[>0q\(graphicsQuestions)\u{1B}[c".utf8)
        guard let tmuxFacts = facts.tmux else {
            apply(ask(colours + questions, timeoutMilliseconds: timeoutMilliseconds), to: &facts)
            return facts
        }
        // Inside tmux, the outer terminal is asked only when passthrough can carry the question;
        // kitty placeholders are decided from tmux's answer without asking; a session with no
        // client attached has nobody outside to answer. Otherwise tmux's own device attributes
        // end the wait for the colours, and are not the outer terminal's.
        if tmuxFacts.hasPassthrough, !tmuxFacts.clientTerm.isEmpty, !facts.showsKittyPlaceholders {
            apply(ask(colours + TmuxPassthrough.wrap(questions), timeoutMilliseconds: timeoutMilliseconds), to: &facts)
        } else {
            apply(ask(colours + Array("\u{1B}[c".utf8), timeoutMilliseconds: timeoutMilliseconds), to: &facts)
            facts.deviceAttributes = nil
        }
        return facts
    }

    /// Reads the answers in `reply` into `facts`.
    static func apply(_ reply: [UInt8], to facts: inout TerminalFacts) {
        facts.deviceAttributes = GraphicsMode.parseDeviceAttributes(reply)
        facts.typedAhead = typedAhead(in: reply)
        if let body = stringAnswer(after: "\u{1B}P>|", in: reply) {
            facts.terminalVersion = String(decoding: body, as: UTF8.self)
        }
        if let body = stringAnswer(after: "\u{1B}_Gi=31;", in: reply) {
            facts.answersKittyGraphics = body.starts(with: "OK".utf8)
        }
        if let geometry = sixelGeometry(in: reply) { facts.sixelGeometry = geometry }
        if let colour = oscColour(10, in: reply) { facts.foreground = colour }
        if let colour = oscColour(11, in: reply) { facts.background = colour }
    }

    /// The body of the first answer that starts with `prefix` and ends with ST (ESC \).
    static func stringAnswer(after prefix: String, in reply: [UInt8]) -> ArraySlice<UInt8>? {
        guard let start = range(of: Array(prefix.utf8), in: reply[...]),
              let end = range(of: [0x1B, UInt8(ascii: "\\")], in: reply[start.upperBound...]) else { return nil }
        return reply[start.upperBound..<end.lowerBound]
    }

    /// Where `needle` first occurs in `bytes`. The answers are read as bytes: they are a few
    /// hundred, and String's searches would bring the standard library's string-processing code
    /// into every start (issue #27: the browser's memory).
    static func range(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        for start in bytes.startIndex...(bytes.endIndex - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
        }
        return nil
    }

    /// The keys in `reply` that are not the terminal's answers: what the user typed before or
    /// while the terminal was asked (the probe reads the same input as the keyboard), to be given
    /// back to the screen. Every escape sequence is left out: the answers (CSI, OSC, DCS, APC)
    /// and keys sent as sequences (arrows, Alt-x), which cannot be given back as one key.
    static func typedAhead(in reply: [UInt8]) -> [UInt8] {
        let escape: UInt8 = 0x1B, bell: UInt8 = 0x07, backslash = UInt8(ascii: "\\")
        var keys: [UInt8] = []
        var index = reply.startIndex
        while index < reply.endIndex {
            guard reply[index] == escape else {
                keys.append(reply[index])
                index += 1
                continue
            }
            let kind = index + 1 < reply.endIndex ? reply[index + 1] : 0
            var end = index + 2
            switch kind {
            case UInt8(ascii: "["):
                // Parameters and intermediates (0x20…0x3F), then one final byte.
                while end < reply.endIndex, (0x20...0x3F).contains(reply[end]) { end += 1 }
                end += 1
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                // A string, ended by BEL or ST (ESC \); another ESC starts the next sequence.
                while end < reply.endIndex, reply[end] != bell, reply[end] != escape { end += 1 }
                if end < reply.endIndex, reply[end] == bell {
                    end += 1
                } else if end + 1 < reply.endIndex, reply[end + 1] == backslash {
                    end += 2
                }
            case UInt8(ascii: "O"):
                end += 1
            default:
                break
            }
            index = min(end, reply.endIndex)
        }
        return keys
    }

    /// The colour in an OSC 10/11 answer (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or ST;
    /// 1 to 4 hex digits a channel).
    static func oscColour(_ number: Int, in reply: [UInt8]) -> RGBA? {
        guard let start = range(of: Array("\u{1B}]\(number);rgb:".utf8), in: reply[...]) else { return nil }
        let body = reply[start.upperBound...].prefix { hexDigitValue($0) != nil || $0 == UInt8(ascii: "/") }
        let channels = body.split(separator: UInt8(ascii: "/"))
        guard channels.count == 3 else { return nil }
        let values = channels.compactMap { digits -> UInt8? in
            guard (1...4).contains(digits.count) else { return nil }
            let value = digits.reduce(UInt32(0)) { $0 << 4 | UInt32(hexDigitValue($1) ?? 0) }
            let maximum = (UInt32(1) << (4 * UInt32(digits.count))) - 1
            return UInt8((value * 255 + maximum / 2) / maximum)
        }
        guard values.count == 3 else { return nil }
        return RGBA(values[0], values[1], values[2])
    }

    static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The last successful XTSMGRAPHICS geometry answer (`CSI ? 2 ; 0 ; width ; height S`): the
    /// largest size when the terminal answers both questions, the current one when it knows only that.
    static func sixelGeometry(in reply: [UInt8]) -> PixelSize? {
        var found: PixelSize?
        var rest = reply[...]
        let question = Array("\u{1B}[?2;0;".utf8)
        while let start = range(of: question, in: rest) {
            let body = reply[start.upperBound...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ";") }
            let end = body.endIndex
            let numbers = body.split(separator: UInt8(ascii: ";")).compactMap { Int(String(decoding: $0, as: UTF8.self)) }
            if end < reply.endIndex, reply[end] == UInt8(ascii: "S"), numbers.count == 2, numbers[0] > 0, numbers[1] > 0 {
                found = PixelSize(width: numbers[0], height: numbers[1])
            }
            rest = reply[end...]
        }
        return found
    }

    /// Writes `questions` to the terminal and reads until a device attributes answer ends, or time runs out.
    static func ask(_ questions: [UInt8], timeoutMilliseconds: Int32) -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return [] }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(fd, TCSANOW, &raw)
        defer { tcsetattr(fd, TCSANOW, &saved) }
        guard write(fd, questions, questions.count) == questions.count else { return [] }
        var reply: [UInt8] = []
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let start = SystemTime.now()
        while reply.count < 4096 {
            let elapsed = Int32((SystemTime.now() - start) / 1_000_000)
            guard elapsed < timeoutMilliseconds, poll(&poller, 1, timeoutMilliseconds - elapsed) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            reply += buffer[0..<count]
            if GraphicsMode.parseDeviceAttributes(reply) != nil { break }
        }
        return reply
    }
}
