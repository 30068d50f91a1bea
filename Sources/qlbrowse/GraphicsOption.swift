import ArgumentParser
import SystemKit
import TerminalGraphics
import ThumbnailKit

/// `--graphics` (or config.toml's `graphics`) read into a mode: nil for `auto`.
enum GraphicsOption {
    /// The mode `name` asks for among `allowed`; a clear error naming the choices otherwise.
    static func mode(_ name: String, allowed: [GraphicsMode] = GraphicsMode.allCases) throws -> GraphicsMode? {
        if name == "auto" { return nil }
        if let mode = GraphicsMode(rawValue: name), allowed.contains(mode) { return mode }
        let choices = (["auto"] + allowed.map(\.rawValue)).joined(separator: ", ")
        throw ValidationError("--graphics takes \(choices) (not \(TerminalText.escaped(name)))")
    }
}
