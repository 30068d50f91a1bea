import SystemKit
import Testing

@Suite struct FileURITests {
    @Test func pathsComeBackFromTheURIsGLibWrites() {
        for path in ["/home/jens/photos/me.png", "/tmp/a photo é.jpg", "/x/100%/[1].jpg", "/"] {
            #expect(FileURI.path(from: FileURI.from(absolutePath: path)) == path)
        }
        #expect(FileURI.from(absolutePath: "/tmp/a photo é.jpg") == "file:///tmp/a%20photo%20%C3%A9.jpg")
    }

    @Test func localhostIsThisMachineAndOtherURIsAreNotPaths() {
        #expect(FileURI.path(from: "file://localhost/etc/hosts") == "/etc/hosts")
        #expect(FileURI.path(from: "file://server/share/x.jpg") == nil)
        #expect(FileURI.path(from: "sftp://host/x.jpg") == nil)
        #expect(FileURI.path(from: "file:relative.jpg") == nil)
        #expect(FileURI.path(from: "file:///tmp/a%00b") == nil)
        // A lone or malformed escape stays as written.
        #expect(FileURI.path(from: "file:///tmp/100%") == "/tmp/100%")
        #expect(FileURI.path(from: "file:///tmp/%zz") == "/tmp/%zz")
    }
}
