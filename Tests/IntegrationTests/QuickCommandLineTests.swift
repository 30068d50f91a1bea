import Foundation
import Testing

/// The quick reading of repeated command lines (`QuickCommandLine`) against the full parser, in
/// the real binary: every line it reads must give the very command the full parser gives (all
/// options, defaults included, compared as the commands' reflections), and every line it cannot
/// read for certain must be left to the full parser, so help and errors stay the parser's.
@Suite struct QuickCommandLineTests {
    static func comparison(_ arguments: [String]) -> (quick: String, full: String) {
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, arguments, environment: ["QLBROWSE_CHECK_QUICK_ARGUMENTS": "1"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let quick = lines.first { $0.hasPrefix("quick: ") }.map { String($0.dropFirst(7)) } ?? "missing"
        let full = lines.first { $0.hasPrefix("full: ") }.map { String($0.dropFirst(6)) } ?? "missing"
        return (quick, full)
    }

    @Test(arguments: [
        ["thumbnail", "a.pdf"],
        ["thumbnail", "-s", "128", "-o", "/tmp", "a.pdf", "b c.jpg"],
        ["thumbnail", "--size=64", "--scale", "2", "--type", "low", "--format", "jpeg", "--json", "--no-service", "x"],
        ["thumbnail", "-r", "--shard", "2/4", "--jobs", "3", "--timeout", "7.5", "--force", "--shared", "/srv"],
        ["thumbnail", "--progressive", "--no-cache", "-t", "icon", "--", "-starts-with-dash.png"],
        ["preview", "a.pdf"],
        ["preview", "--size", "60x20", "--place", "40x1", "--graphics", "kitty", "--no-service", "a.pdf"],
        ["preview", "--clear"],
        [],
        ["/home/someone/Pictures"],
        ["--graphics", "sixel", "--theme", "light", "--choosedir", "/tmp/d", "--volumes", "--no-service", "here"],
        ["browse", "there"],
        ["caf\u{E9}", "--no-service"],
    ])
    func linesItReadsGiveTheFullParsersCommand(_ arguments: [String]) {
        let (quick, full) = Self.comparison(arguments)
        #expect(quick != "none", "the quick reading gave up on \(arguments)")
        #expect(quick == full, "\(arguments)")
        #expect(!quick.contains(".definition"), "an option the quick reading did not set: \(quick)")
    }

    @Test(arguments: [
        ["thumbnail", "--help"], ["thumbnail", "-h"], ["thumbnail"], ["thumbnail", "-rf", "x"], ["thumbnail", "--bogus", "x"],
        ["thumbnail", "-s", "big", "x"], ["thumbnail", "-s", "0", "x"], ["thumbnail", "-s", "1", "-s", "2", "x"],
        ["thumbnail", "-o", "-x", "a"], ["thumbnail", "--format", "gif", "x"], ["thumbnail", "--shard", "2/4", "x"],
        ["preview"], ["preview", "a", "b"], ["preview", "--size", "wide", "a"],
        ["--version"], ["--help"], ["help"], ["cache"], ["files", "copy", "a", "b"], ["thumbnail"], ["-"], ["a", "b"],
    ])
    func linesItCannotReadAreLeftToTheFullParser(_ arguments: [String]) {
        #expect(Self.comparison(arguments).quick == "none", "\(arguments)")
    }

    @Test func aFolderNamedLikeACommandIsThatCommandForBoth() {
        // `qlbrowse cache` is the cache command to the full parser; the quick reading must not open a folder "cache".
        #expect(Self.comparison(["cache"]).quick == "none")
        #expect(Self.comparison(["./cache"]).quick == Self.comparison(["./cache"]).full)
    }
}
