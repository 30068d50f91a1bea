import Testing
@testable import SystemKit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FileDescriptorReaderTests {
    @Test func readsAcrossShortReadsUpToTheLimit() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        FileDescriptorWriter.writeAll([1, 2, 3], to: fds[1])
        FileDescriptorWriter.writeAll([4, 5, 6, 7], to: fds[1])
        close(fds[1])
        #expect(FileDescriptorReader.read(fds[0], upTo: 5) == [1, 2, 3, 4, 5])
        #expect(FileDescriptorReader.read(fds[0], upTo: 10) == [6, 7])
    }

    @Test func aMissingFileIsNil() {
        #expect(FileDescriptorReader.readFile("/nonexistent/file", upTo: 10) == nil)
    }
}
