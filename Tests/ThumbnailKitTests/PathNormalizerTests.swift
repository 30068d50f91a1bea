import SystemKit
import Testing
@testable import ThumbnailKit

@Suite struct PathNormalizerTests {
    @Test func normalPathsAreRecognisedWithoutSplitting() {
        for path in ["/", "/a", "/home/user/Pictures/IMG 1.jpg", "/a/.hidden", "/a/...", "/a/..b", "/a/b.", "/é/ß"] {
            #expect(PathNormalizer.isNormalAbsolute(path), "\(path)")
            #expect(PathNormalizer.absolute(path) == path)
        }
    }

    @Test func everythingElseIsNormalised() {
        let cases = ["//a": "/a", "/a//b": "/a/b", "/a/": "/a", "/a/./b": "/a/b", "/a/../b": "/b", "/a/.": "/a", "/a/b/..": "/a",
                     "/..": "/", "/./": "/"]
        for (path, normal) in cases {
            #expect(!PathNormalizer.isNormalAbsolute(path), "\(path)")
            #expect(PathNormalizer.absolute(path) == normal, "\(path)")
        }
        #expect(!PathNormalizer.isNormalAbsolute("a/b"))
        #expect(PathNormalizer.absolute("a/b").hasSuffix("/a/b") && PathNormalizer.absolute("a/b").hasPrefix("/"))
    }

    @Test func dotDotTakesBackOneComponentAndNamesKeepTheirBytes() {
        let cases = ["/a/b/c/../../d": "/a/d", "/a/b/../../..": "/", "/../../a": "/a", "/ab/../cd/./": "/cd", "/a/b/../c/..": "/a"]
        for (path, normal) in cases { #expect(PathNormalizer.absolute(path) == normal, "\(path)") }
        let latin1 = String(fileSystemBytes: Array("/caf".utf8) + [0xE9] + Array("/x/../photo.jpg".utf8))
        #expect(PathNormalizer.absolute(latin1).fileSystemBytes == Array("/caf".utf8) + [0xE9] + Array("/photo.jpg".utf8))
    }
}
