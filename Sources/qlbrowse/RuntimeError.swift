import ArgumentParser

/// A failure of the work itself, not of how the command was typed: a missing input, an output
/// that cannot be written, a file that cannot be previewed. `QLBrowse.runAsMain` prints it as one
/// plain sentence after `qlbrowse:` and exits 1; usage mistakes stay `ValidationError`s (exit 64
/// with the usage text), as the BSD `sysexits` convention the parser follows has it.
struct RuntimeError: Error, CustomStringConvertible {
    /// The sentence, without the program's name.
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
