import Foundation
import SystemKit
import Testing
@testable import ThumbnailKit

/// The headers a short call writes and reads without Codable are Codable's own JSON: each one
/// written here reads back through Codable as the same value, and each one Codable writes reads
/// back here as the same value, names with every kind of character included.
@Suite struct WorkerHeaderShortcutTests {
    /// The request header as `WorkerCodec` writes it through Codable.
    struct CodableHeader: Codable, Equatable {
        var request: WorkerRequest
        var deadline: WorkerDeadline?
    }

    static let names = ["/p/a.jpg", "/p/a\u{EF80}\u{EFFF}.jpg", "/q/\"quoted\" \\back\\slash/", "/c/\u{01}\u{1B}[31m\u{7F}\n\t\r",
                        "/e/\u{1F600} 日本語 café", "/s/a/b//c/", ""]
    static let box = PixelSize(width: 256, height: 192)

    static var requests: [WorkerRequest] {
        names.flatMap { name -> [WorkerRequest] in
            [.hello(identity: "v2 qlbrowse=\(name)@1:2"),
             .thumbnails(.init(path: name, box: box, types: [.thumbnail, .lowQuality, .icon], contentType: ContentType("image/jpeg"), wantsFacts: true)),
             .thumbnails(.init(path: name, box: PixelSize(width: 0, height: 1 << 40), types: [], contentType: nil, wantsFacts: false, embeddedSuffices: true))]
        } + [.cancel]
    }

    static var answers: [WorkerAnswer] {
        names.flatMap { name -> [WorkerAnswer] in
            [.hello(identity: name), .replaced(reason: name), .contentType(ContentType("application/x-\(name.lowercased())")),
             .image(.init(type: .lowQuality, size: PixelSize(width: 2, height: 1), source: name, facts: [FileFact(name, name), FileFact("Camera", "X100V")])),
             .image(.init(type: .thumbnail, size: box, source: "poppler", facts: [])),
             .failure(.init(ThumbnailError(.encrypted, name, contentType: ContentType("application/pdf")))),
             .failure(.init(ThumbnailError(.timedOut, name)))]
        } + [.done]
    }

    static let deadlines: [WorkerDeadline?] = [nil, WorkerDeadline(seconds: 4.5), WorkerDeadline(monotonicNanos: Int64.max),
                                               WorkerDeadline(seconds: 0.1, monotonicNanos: 123_456_789_012), WorkerDeadline(seconds: 30)]

    @Test func requestsWrittenHereReadBackThroughCodableAndTheOtherWay() throws {
        for request in Self.requests {
            for deadline in Self.deadlines {
                let written = try #require(WorkerHeaderShortcut.header(request, deadline: deadline), "\(request)")
                #expect(try JSONDecoder().decode(CodableHeader.self, from: Data(written)) == CodableHeader(request: request, deadline: deadline))
                let codable = try JSONEncoder().encode(CodableHeader(request: request, deadline: deadline))
                let read = try #require(WorkerHeaderShortcut.request(in: ArraySlice(codable)), "\(String(decoding: codable, as: UTF8.self))")
                #expect(read.0 == request)
                #expect(read.1 == deadline)
            }
        }
    }

    @Test func answersWrittenHereReadBackThroughCodableAndTheOtherWay() throws {
        for answer in Self.answers {
            let written = try #require(WorkerHeaderShortcut.header(answer), "\(answer)")
            #expect(try JSONDecoder().decode(WorkerAnswer.self, from: Data(written)) == answer)
            let codable = try JSONEncoder().encode(answer)
            #expect(WorkerHeaderShortcut.answer(in: ArraySlice(codable)) == answer, "\(String(decoding: codable, as: UTF8.self))")
        }
    }

    @Test func otherRequestsAndAnswersAreLeftToCodable() throws {
        let path = "/p/doc.pdf"
        #expect(WorkerHeaderShortcut.header(.page(.init(path: path, box: Self.box, index: 1)), deadline: nil) == nil)
        #expect(WorkerHeaderShortcut.header(.members) == nil)
        #expect(WorkerHeaderShortcut.header(.page(.init(size: Self.box, index: 0, pageCount: 2))) == nil)
        // A deadline JSON cannot hold goes to Codable too (which refuses it in its own words).
        #expect(WorkerHeaderShortcut.header(.cancel, deadline: WorkerDeadline(seconds: .infinity)) == nil)
        // Codable's JSON of those is not read here, and the codec still reads it.
        let page = try JSONEncoder().encode(CodableHeader(request: .page(.init(path: path, box: Self.box, index: 1)), deadline: nil))
        #expect(WorkerHeaderShortcut.request(in: ArraySlice(page)) == nil)
        let frame = WorkerFrame(id: 1, header: [UInt8](page))
        #expect(try WorkerCodec.request(in: frame).0 == .page(.init(path: path, box: Self.box, index: 1)))
        // Shapes Codable would read differently, or refuse, are not taken here.
        for header in [#"{"image":{"_0":{"type":"thumbnail","size":{"width":1,"height":1},"source":"x","facts":[],"extra":1}}}"#,
                       #"{"contentType":{"_0":{"identifier":"Image/JPEG"}}}"#, #"{"done":{"x":1}}"#, #"{"done":{},"failure":{}}"#,
                       #"{"failure":{"_0":{"code":"melted","reason":"x"}}}"#, #"{"hello":{"identity":7}}"#] {
            #expect(WorkerHeaderShortcut.answer(in: ArraySlice(header.utf8)) == nil, "\(header)")
        }
        for header in [#"{"request":{"cancel":{}},"deadline":{"seconds":"soon"}}"#, #"{"request":{"cancel":{}},"extra":{}}"#,
                       #"{"request":{"thumbnails":{"_0":{"path":"/a","box":{"width":1,"height":1},"types":["huge"],"wantsFacts":true,"embeddedSuffices":false}}}}"#] {
            #expect(WorkerHeaderShortcut.request(in: ArraySlice(header.utf8)) == nil, "\(header)")
        }
    }

    @Test func theReaderTakesJSONAndNothingElse() {
        let valid: [(String, JSONTree)] = [
            (#" { "a" : [1, -0.5e+3, true, false, null, "x"] } "#,
             .object([("a", .array([.number("1"), .number("-0.5e+3"), .bool(true), .bool(false), .null, .string("x")]))])),
            (#""\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\""#, .string("é\u{1F600}/\u{08}\u{0C}\n\r\t\"\\")),
            ("[]", .array([])), ("{}", .object([])), ("0", .number("0")), ("\"日本\"", .string("日本")),
        ]
        for (text, tree) in valid {
            #expect(JSONTree.parse(Array(text.utf8)) == tree, "\(text)")
            #expect(JSONTree.parse(tree.bytes) == tree, "written and read again: \(text)")
        }
        let invalid = ["", " ", "01", "1.", ".5", "-", "1e", "+1", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "\"\u{01}\"",
                       #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\x41""#, #""\u12""#, "\"open", "nul", "truth", "[1] 2",
                       String(repeating: "[", count: 70) + String(repeating: "]", count: 70)]
        for text in invalid { #expect(JSONTree.parse(Array(text.utf8)) == nil, "\(text.debugDescription)") }
        #expect(JSONTree.parse([0x22, 0xFF, 0x22]) == nil, "a string that is not UTF-8")
        #expect(JSONTree.number(.nan) == nil && JSONTree.number(-.infinity) == nil)
        #expect(JSONTree.number(2.0) == .number("2") && JSONTree.number(0.1) == .number("0.1") && JSONTree.number(1e300)?.double == 1e300)
    }
}
