import ArgumentParser
import ThumbnailKit

extension EditCommand {
    /// `qlbrowse edit annotate`: one mark of Markup on a PDF page (a real annotation) or a picture
    /// (drawn into it), saved like the other edits.
    struct Annotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annotate",
            abstract: "Mark up a PDF page (real annotations) or a picture (drawn in): shapes, arrows, highlights, notes, freehand.",
            discussion: """
            The box is X,Y,WIDTH,HEIGHT from the top-left corner of the page or picture as it is shown: on a PDF \
            in points (1/72 inch) inside the page's crop box, after its rotation; on a picture in pixels, after its \
            EXIF orientation. A PDF gets a real annotation (Square, Circle, Line with an arrowhead, Highlight, \
            FreeText, Ink) that any reader shows and can edit or delete; its text and drawings are not touched, \
            annotations already there stay. A PDF that needs a password, or whose owner forbids annotations, is \
            refused. A picture gets the mark drawn in at full size; PNG, TIFF, WebP, HEIC and AVIF lose nothing, \
            a JPEG is encoded again at its own quality (not lossless).
            """)

        @Option(help: "The page, counted from 1 (PDF).") var page = 1
        @Option(help: "X,Y,WIDTH,HEIGHT from the top-left as shown: PDF points, or picture pixels.") var box: String?
        @Option(help: "What to draw.") var kind: Mark.Kind = .rectangle
        @Option(help: "The colour (red; highlights yellow).") var colour: Mark.Colour?
        @Option(help: "The note's text; on other kinds, the comment a PDF reader shows with the mark.") var note: String?
        @Option(help: "x1,y1,x2,y2,…: a freehand stroke's points, or an arrow's start and end (else the box's diagonal).") var points: String?
        @OptionGroup var saving: Saving
        @Argument(help: "A PDF or a picture.") var file: String

        func validate() throws { _ = try mark() }

        func run() async throws {
            try await EditCommand.run(.annotate(marks: [try mark()]), on: [file], saving)
        }

        /// The mark the options describe, checked.
        func mark() throws -> Mark {
            guard page >= 1 else { throw ValidationError("--page counts from 1") }
            let stroke = try points.map { try Self.numbers($0, "--points") } ?? []
            guard stroke.count % 2 == 0 else { throw ValidationError("--points needs pairs of numbers: x1,y1,x2,y2,…") }
            let pointList = stride(from: 0, to: stroke.count, by: 2).map { Mark.Point(x: stroke[$0], y: stroke[$0 + 1]) }
            let area: Mark.Box
            if let box {
                let values = try Self.numbers(box, "--box")
                guard values.count == 4 else { throw ValidationError("--box is X,Y,WIDTH,HEIGHT") }
                area = Mark.Box(x: values[0], y: values[1], width: values[2], height: values[3])
            } else if let around = Mark.Box.around(pointList), kind == .freehand || kind == .arrow {
                area = around
            } else {
                throw ValidationError("say where: --box X,Y,WIDTH,HEIGHT\(kind == .freehand || kind == .arrow ? " or --points" : "")")
            }
            let mark = Mark(kind: kind, page: page - 1, box: area, colour: colour ?? (kind == .highlight ? .yellow : .red),
                            note: note, points: pointList)
            if let problem = mark.problem { throw ValidationError(problem) }
            return mark
        }

        /// "10,20.5,30" as numbers, each finite and within a million (no page or picture is larger).
        static func numbers(_ text: String, _ option: String) throws -> [Double] {
            let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.filter { !$0.isWhitespace }) }
            guard !values.isEmpty, values.allSatisfy({ $0 != nil && $0!.isFinite && abs($0!) <= 1_000_000 }) else {
                throw ValidationError("\(option) takes numbers separated by commas, not \(text)")
            }
            return values.map { $0! }
        }
    }
}

extension Mark.Kind: ExpressibleByArgument {}
extension Mark.Colour: ExpressibleByArgument {}
