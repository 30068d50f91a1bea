#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Prints `qlbrowse thumbnail`'s results, one line per file or representation, as text or JSON.
/// File names are escaped: nothing in a name reaches the terminal raw.
actor ThumbnailReporter {
    private let json: Bool

    init(json: Bool) {
        self.json = json
    }

    struct Line: Encodable {
        var file: String
        var contentType: String?
        var representation: String?
        var source: String?
        var width: Int?
        var height: Int?
        var ms: Int?
        var output: String?
        var error: String?
        var facts: [String: String]?
    }

    func report(file: String, representation: Representation, elapsed: Duration, output: String?) {
        reportAtOnce(file: file, representation: representation, elapsed: elapsed, output: output)
    }

    /// `report`, from a caller that runs alone (a short call answered before any task started):
    /// nothing else writes lines meanwhile.
    nonisolated func reportAtOnce(file: String, representation: Representation, elapsed: Duration, output: String?) {
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        if json {
            emit(Line(file: file, contentType: representation.contentType.identifier, representation: representation.type.rawValue,
                      source: representation.source, width: representation.pixelSize.width, height: representation.pixelSize.height,
                      ms: ms, output: output,
                      facts: representation.facts.isEmpty ? nil : Dictionary(representation.facts.map { ($0.label, $0.value) }, uniquingKeysWith: { first, _ in first })))
        } else {
            var text = "\(TerminalText.escaped(file)): \(representation.contentType.identifier) \(representation.type.rawValue) "
                + "\(representation.source) \(representation.pixelSize.width)x\(representation.pixelSize.height) \(ms) ms"
            if let output { text += " -> \(TerminalText.escaped(output))" }
            write(text + "\n", to: 1)
        }
    }

    /// With `--progressive`, the write of the best representation gets its own line.
    func wrote(file: String, output: String) {
        if json {
            emit(Line(file: file, output: output))
        } else {
            write("\(TerminalText.escaped(file)): wrote \(TerminalText.escaped(output))\n", to: 1)
        }
    }

    func fail(file: String, error: ThumbnailError) {
        failAtOnce(file: file, error: error)
    }

    /// `fail`, from a caller that runs alone (see `reportAtOnce`).
    nonisolated func failAtOnce(file: String, error: ThumbnailError) {
        if json {
            emit(Line(file: file, contentType: error.contentType?.identifier, error: error.reason))
        } else {
            write("qlbrowse: \(TerminalText.escaped(file)): \(TerminalText.escaped(error.reason))\n", to: 2)
        }
    }

    private nonisolated func emit(_ line: Line) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(line) else { return }
        write(FileSystemBytes.jsonForOtherPrograms(String(decoding: data, as: UTF8.self)) + "\n", to: 1)
    }

    private nonisolated func write(_ text: String, to fd: Int32) {
        StandardStream.write(text, to: fd)
    }
}
