import Testing
@testable import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FrameCodecTests {
    @Test func aFrameSurvivesAPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var message = WorkerMessage(kind: .image, id: 42)
        message.width = 1
        message.height = 1
        message.source = "vips"
        try FrameCodec.write(FrameCodec.encode(message, payload: [1, 2, 3, 4]), to: fds[1])
        close(fds[1])
        let read = try FrameCodec.read(from: fds[0])
        #expect(read?.0 == message)
        #expect(read?.1 == [1, 2, 3, 4])
        #expect(try FrameCodec.read(from: fds[0]) == nil)
    }

    @Test func aTruncatedFrameIsAnErrorNotAHang() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let frame = FrameCodec.encode(WorkerMessage(kind: .done, id: 1))
        try FrameCodec.write(Array(frame.prefix(frame.count - 3)), to: fds[1])
        close(fds[1])
        #expect(throws: FrameError.self) { try FrameCodec.read(from: fds[0]) }
    }

    @Test func anOversizedLengthIsRefused() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        try FrameCodec.write([0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0], to: fds[1])
        close(fds[1])
        #expect(throws: FrameError.oversized) { try FrameCodec.read(from: fds[0]) }
    }
}
