import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Syntax colours for the text Quick Look shows, through bat (`batcat` on Debian): it knows
/// hundreds of languages by file name and is fast enough to run per screenful. Its `ansi` theme
/// uses the terminal's own 16 colours, so the text looks right in any theme. Without bat, or for
/// a language it does not know, the text stays plain.
enum Highlighter {
    /// The bat program on the PATH, looked for once.
    static let program: String? = ProgramSearch.executable("batcat") ?? ProgramSearch.executable("bat")

    /// The lines coloured for a file called `fileName`, or nil when they stay plain. The lines
    /// must already be visible text (control characters escaped): only bat's colours come back.
    /// bat gets `seconds` to answer (a screenful takes milliseconds; a stuck bat leaves it plain).
    static func highlight(_ lines: [String], fileName: String, seconds: Double = 2) -> [StyledLine]? {
        guard let program, !lines.isEmpty else { return nil }
        let input = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        let command = [program, "--color=always", "--style=plain", "--paging=never", "--theme=ansi", "--wrap=never", "--file-name", fileName, "-"]
        guard let output = ProcessOutput.run(command, input: input, seconds: seconds) else { return nil }
        var styled = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { StyledLine(highlighted: String($0)) }
        if styled.last?.runs.isEmpty == true && styled.count > lines.count { styled.removeLast() }
        // bat changes nothing but colours; if the text came back different, it is not trusted.
        guard styled.count == lines.count, zip(styled, lines).allSatisfy({ $0.text == $1 }) else { return nil }
        return styled
    }
}
