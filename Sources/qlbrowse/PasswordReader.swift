import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Reads a password for `qlbrowse connect`: the first line of standard input, or asked on the
/// terminal with echo off (restored even when interrupted by an error).
enum PasswordReader {
    static var isTerminal: Bool { isatty(0) == 1 }

    /// Standard input's first line, without its line break.
    static func firstLine() -> String {
        var bytes: [UInt8] = [], byte: UInt8 = 0
        while read(0, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Asks `prompt` on standard error and reads a line with echo off. Echo goes off before the
    /// prompt is shown, and without flushing: what is typed as soon as the prompt shows is
    /// neither echoed nor thrown away (TCSAFLUSH did both to a fast typist).
    static func ask(_ prompt: String) -> String {
        var saved = termios()
        let hasTerminal = tcgetattr(0, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        StandardStream.write(prompt, to: 2)
        let line = firstLine()
        if hasTerminal { tcsetattr(0, TCSANOW, &saved) }
        StandardStream.write("\n", to: 2)
        return line
    }
}
