import Dispatch
import FileSystemKit
import Foundation
@testable import Places
import Synchronization
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The remote side in this process, over two pipes: the hello across versions, and requests
/// answered by a `LocalPlace` on a temporary folder.
@Suite struct RemoteServerTests {
    private let root: String
    private let requests: SystemPipe
    private let answers: SystemPipe
    private let server: RemoteServer

    init() throws {
        root = NSTemporaryDirectory() + "qlbrowse-serve-\(UUID().uuidString.prefix(8))"
        _ = mkdir(root, 0o755)
        requests = try SystemPipe.make()
        answers = try SystemPipe.make()
        server = RemoteServer(place: LocalPlace(volumes: { [] }, dataHome: root + "/data"), input: requests.readEnd, output: answers.writeEnd, software: "test")
    }

    /// Runs the server on a thread of its own; its end comes back through the returned box.
    private func start() -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let server = self.server, requests = self.requests, answers = self.answers
        DispatchQueue.global().async {
            _ = server.run()
            close(requests.readEnd)
            close(answers.writeEnd)
            done.signal()
        }
        return done
    }

    private func send(_ request: RemoteRequest, id: UInt64, payload: [UInt8] = []) throws {
        try FrameCodec.write(RemoteCodec.frame(request, id: id, payload: payload), to: requests.writeEnd)
    }

    /// The next answer, read off the cooperative threads (the server's tasks need them: a test
    /// blocking one there could starve the server it waits for).
    private func answer() async throws -> (UInt64, RemoteAnswer, [UInt8]) {
        let fd = answers.readEnd
        let frame = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WorkerFrame?, any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try FrameCodec.read(from: fd) }) }
        }
        let read = try #require(frame)
        return (read.id, try RemoteCodec.answer(in: read), read.payload)
    }

    private func wait(_ done: DispatchSemaphore) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: done.wait(timeout: .now() + 5) == .success) }
        }
    }

    @Test func anotherVersionHearsOursAndTheSessionEnds() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let done = DispatchSemaphore(value: 0)
        let server = self.server
        let ended = Mutex<RemoteServer.End?>(nil)
        DispatchQueue.global().async {
            ended.withLock { $0 = server.run() }
            done.signal()
        }
        try send(.hello(version: RemoteCodec.version + 5, software: "future"), id: 0)
        let (id, hello, _) = try await answer()
        #expect(id == 0 && hello == .hello(version: RemoteCodec.version, software: "test"))
        #expect(await wait(done))
        #expect(ended.withLock { $0 } == .otherVersion(RemoteCodec.version + 5))
        requests.close()
        answers.close()
    }

    @Test func requestsAreAnsweredUnderTheirIds() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let odd = String(fileSystemBytes: [0x61, 0xFF, 0x2E, 0x6A, 0x70, 0x67])
        let done = start()
        try send(.hello(version: RemoteCodec.version, software: "test"), id: 0)
        _ = try await answer()
        try send(.write(path: root + "/" + odd), id: 1 << 40, payload: [1, 2, 3, 4])
        #expect(try await answer().1 == .done)
        try send(.read(.init(path: root + "/" + odd, offset: 1, length: 2)), id: 7)
        let (id, bytes, payload) = try await answer()
        #expect(id == 7 && bytes == .bytes && payload == [2, 3])
        try send(.list(path: root), id: 8)
        var names: [[UInt8]] = []
        while true {
            let (listID, entries, packed) = try await answer()
            #expect(listID == 8)
            guard case .entries(let complete) = entries else { Issue.record("\(entries)"); break }
            let store = try #require(RemoteListing.unpack(packed))
            names += store.handles.map { store.name($0) }
            if complete { break }
        }
        #expect(names == [odd.fileSystemBytes])
        try send(.item(path: root + "/missing"), id: 9)
        guard case (9, .failure(let failure), _) = try await answer() else { Issue.record(); return }
        #expect(failure.fileSystemError.code == .notFound)
        // The undo journal's check (version 6): this side's own stamp of a name as bytes; nil for nothing there.
        try send(.stamp(path: root + "/" + odd), id: 10)
        #expect(try await answer().1 == .stamp(PathStamp.of(root + "/" + odd)) && PathStamp.of(root + "/" + odd) != nil)
        try send(.stamp(path: root + "/missing"), id: 11)
        #expect(try await answer().1 == .stamp(nil))
        close(requests.writeEnd)
        #expect(await wait(done), "the end of the input ends the session")
        close(answers.readEnd)
    }

    /// `F` on the remote: the search walks here and streams reports under its id, a new query
    /// under that id ranks again, and the cancel stops the search (its walk with it): no report
    /// after it, and the search is gone from the server.
    @Test func aFindStreamsReportsUnderItsIdAndItsCancelStopsIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let odd = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8))
        _ = mkdir(root + "/one", 0o755)
        _ = mkdir(root + "/one/two", 0o755)
        _ = close(open(root + "/one/two/" + odd, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
        _ = close(open(root + "/one/plain.txt", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
        let done = start()
        try send(.hello(version: RemoteCodec.version, software: "test"), id: 0)
        _ = try await answer()
        try send(.find(.init(path: root, showsHidden: false, query: "caf")), id: 42)
        var last: FileFinder.Report?
        while last?.complete != true {
            let (id, found, _) = try await answer()
            #expect(id == 42)
            guard case .found(let report) = found else { Issue.record("\(found)"); break }
            last = report
        }
        #expect(last?.best.map(\.fileSystemBytes) == [("one/two/" + odd).fileSystemBytes], "the match two folders down, by its bytes")
        try send(.findQuery("plain"), id: 42)
        var again: FileFinder.Report?
        while again?.query != "plain" {
            guard case (42, .found(let report), _) = try await answer() else { Issue.record(); return }
            again = report
        }
        #expect(again?.best == ["one/plain.txt"], "ranked again over what was walked")
        let search = try #require(server.finders.withLock { $0[42] })
        try send(.cancel, id: 42)
        // The cancelled search ranks nothing more: no report for a query sent after the cancel.
        try send(.findQuery("two"), id: 42)
        try send(.probe(path: root), id: 43)
        while true {
            let (id, answered, _) = try await answer()
            if id == 43 {
                #expect(answered == .done)
                break
            }
            if case .found(let late) = answered { #expect(late.query != "two", "a report after the cancel") }
        }
        #expect(search.isCancelled && server.finders.withLock { $0.isEmpty }, "the cancel stopped the search there")
        close(requests.writeEnd)
        #expect(await wait(done))
        close(answers.readEnd)
    }

    /// Tab in `F` on the remote: ripgrep runs here, and the files holding the word come back as
    /// `.foundInside` under the request's id, relative to the folder and by their bytes, the
    /// complete report last (the request ends there); the limit lists fewer, counts all.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/rg"), "needs ripgrep"))
    func aSearchInsideFilesRunsRipgrepHereAndItsCompleteReportEndsIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let odd = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8))
        _ = mkdir(root + "/one", 0o755)
        for (path, text) in [("one/" + odd, "a jar of marmalade\n"), ("top.md", "Marmalade\n"), ("other.txt", "oranges\n")] {
            let fd = open(root + "/" + path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            _ = FileDescriptorWriter.writeAll(Array(text.utf8), to: fd)
            close(fd)
        }
        let done = start()
        try send(.hello(version: RemoteCodec.version, software: "test"), id: 0)
        _ = try await answer()
        for (id, limit) in [(UInt64(7), 200), (8, 1)] {
            try send(.findInside(.init(path: root, query: "marmalade", limit: limit)), id: id)
            var last: FileFinder.Report?
            while last?.complete != true {
                let (answered, found, _) = try await answer()
                #expect(answered == id)
                guard case .foundInside(let report) = found else { Issue.record("\(found)"); break }
                last = report
            }
            #expect(last?.matched == 2 && last?.query == "marmalade")
            if limit == 1 {
                #expect(last?.best.count == 1, "the limit lists one")
            } else {
                #expect(Set(last?.best.map(\.fileSystemBytes) ?? []) == [("one/" + odd).fileSystemBytes, Array("top.md".utf8)], "\(String(describing: last))")
            }
        }
        close(requests.writeEnd)
        #expect(await wait(done))
        close(answers.readEnd)
    }
}
