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
}
