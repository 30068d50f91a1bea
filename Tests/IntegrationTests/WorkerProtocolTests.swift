import Foundation
import Testing
import ThumbnailKit

/// The real worker speaks `WorkerCodec` on its pipes: a request it cannot read (another build's)
/// gets a failure under its own id, and the worker goes on serving the next one.
@Suite struct WorkerProtocolTests {
    @Test func aRequestTheWorkerCannotReadFailsAloneAndTheWorkerLivesOn() throws {
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: TestEnvironment.thumbnailer)
        let (requests, answers) = (Pipe(), Pipe())
        worker.standardInput = requests
        worker.standardOutput = answers
        worker.standardError = FileHandle.nullDevice
        try worker.run()
        defer {
            try? requests.fileHandleForWriting.close()
            worker.waitUntilExit()
        }
        let unknown = WorkerFrame(id: 7, header: Array(#"{"request":{"teleport":{"path":"/nowhere"}}}"#.utf8))
        let picture = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path
        let known = WorkerCodec.frame(.thumbnails(.init(path: picture, box: PixelSize(width: 64, height: 64), types: [.thumbnail],
                                                        contentType: nil, wantsFacts: false)), id: 8)
        requests.fileHandleForWriting.write(Data(unknown.bytes + known.bytes))

        var received: [(UInt64, WorkerAnswer)] = []
        while received.last.map({ $0.0 == 8 && $0.1.endsRequest }) != true {
            let frame = try #require(try FrameCodec.read(from: answers.fileHandleForReading.fileDescriptor), "the worker stopped answering")
            received.append((frame.id, try WorkerCodec.answer(in: frame)))
        }
        guard case (7, .failure(let failure))? = received.first else {
            Issue.record("the unreadable request got \(received.first.map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(failure.code == .unsupported)
        #expect(failure.reason.contains("unknown request “teleport”"), "\(failure.reason)")
        #expect(received.contains { $0.0 == 8 && { if case .image = $0 { true } else { false } }($0.1) })
        #expect(received.last?.1 == .done)
    }
}
