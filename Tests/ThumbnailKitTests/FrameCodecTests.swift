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
        let message = WorkerAnswer.image(.init(type: .thumbnail, size: PixelSize(width: 1, height: 1), source: "vips", facts: []))
        try FrameCodec.write(WorkerCodec.frame(message, id: 42, payload: [1, 2, 3, 4]), to: fds[1])
        close(fds[1])
        let read = try FrameCodec.read(from: fds[0])
        #expect(try read.map(WorkerCodec.answer(in:)) == message)
        #expect(read?.id == 42)
        #expect(read?.payload == [1, 2, 3, 4])
        #expect(try FrameCodec.read(from: fds[0]) == nil)
    }

    @Test func aTruncatedFrameIsAnErrorNotAHang() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let frame = WorkerCodec.frame(WorkerAnswer.done, id: 1).bytes
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
