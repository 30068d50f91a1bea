import Dispatch
import FileSystemKit
import Foundation
import Places
import Synchronization
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `PlaceTransfer` between two local places (it does not care what a place is): a name-conflict
/// question waiting for the user holds no shared thread, and a temporary that a transfer of a
/// process now gone left (its journal says so) is removed by the next transfer into that folder,
/// while one of a live process stays.
@Suite struct PlaceTransferTests {
    private let root: String
    private let here: String
    private let there: String
    private let journals: String

    init() {
        root = NSTemporaryDirectory() + "qlbrowse-transfer-\(UUID().uuidString.prefix(8))"
        here = root + "/here"
        there = root + "/there"
        journals = root + "/journals"
        for folder in [root, here, there, journals] { _ = mkdir(folder, 0o755) }
    }

    private func write(_ path: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    private func place() -> LocalPlace { LocalPlace(io: VolumeIO(), volumes: { [] }, dataHome: root + "/data") }

    /// More pastes waiting for an answer than the cooperative pool has threads: another place
    /// call still completes. (Before, each question was asked on the transfer's own cooperative
    /// thread: with as many questions as threads nothing else of the process ran.)
    @Test func aPendingQuestionDoesNotStopAnotherPlaceCall() async throws {
        let pastes = ProcessInfo.processInfo.activeProcessorCount + 2
        let asked = Atomic<Int>(0)
        let answer = DispatchSemaphore(value: 0)
        for index in 0..<pastes {
            write(here + "/\(index).txt", "new \(index)")
            write(there + "/\(index).txt", "old \(index)")
        }
        let events = FileOperationEvents(resolve: { _ in
            asked.add(1, ordering: .relaxed)
            answer.wait()
            return (.skip, false)
        })
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<pastes {
            Task.detached { [here, there] in
                let report = await PlaceTransfer(from: place(), to: place())
                    .copy(FileOperation(kind: .copy, sources: [here + "/\(index).txt"], destination: there), events: events)
                #expect(report.skipped.count == 1)
                finished.signal()
            }
        }
        // Hang guards, not timings: the whole suite runs in this process, on the same threads.
        try await Self.until(seconds: 120) { asked.load(ordering: .relaxed) == pastes }
        // Every question is waiting now; a call of another place must not wait with them (before,
        // it waited until they were answered: never, here).
        let other = DispatchSemaphore(value: 0)
        Task.detached { [here] in
            if (try? await place().item(at: here + "/0.txt")) != nil { other.signal() }
        }
        var callCompleted = false
        try await Self.until(seconds: 60) { callCompleted = callCompleted || other.wait(timeout: .now()) == .success; return callCompleted }
        for _ in 0..<pastes { answer.signal() }
        var done = 0
        try await Self.until(seconds: 60) { while finished.wait(timeout: .now()) == .success { done += 1 }; return done == pastes }
        let askedAll = asked.load(ordering: .relaxed) == pastes
        #expect(askedAll, "every paste asked at once")
        #expect(callCompleted, "a place call completed while \(pastes) questions waited")
        #expect((try? String(contentsOfFile: there + "/0.txt", encoding: .utf8)) == "old 0", "skipped: the old one kept")
    }

    /// Waits, without holding a thread, until `condition` holds or `seconds` pass.
    private static func until(seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// A journal of a process that is gone, stopped while `copying`, names its temporary in
    /// `there`: the next transfer into `there` removes it, says so, and writes it into that
    /// journal. A journal of a live process (pid 1) naming another temporary: that one stays.
    @Test func aTemporaryLeftByAnEndedTransferIsRemovedByTheNext() async throws {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        let leftover = there + "/.big.bin.qlbrowse-\(dead)-7.part", live = there + "/.other.bin.qlbrowse-1-9.part"
        write(leftover, "half")
        write(live, "being written")
        let name = place().name
        func journal(_ pid: Int32, _ temporary: String) throws {
            // As a killed run leaves it: the item stopped while `copying`, its temporary named.
            let record: [String: Any] = ["kind": "copy", "from": "elsewhere", "to": name, "destination": there,
                                         "items": [["source": "/far/" + FileOperation.name(temporary), "state": "copying",
                                                    "target": there + "/big.bin", "temporary": temporary]]]
            try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: journals + "/copy-\(pid)-1.json"))
        }
        try journal(dead, leftover)
        try journal(1, live)
        write(here + "/new.txt", "new")
        let journal = TransferJournal(folder: journals, from: name, to: name, destination: there, sources: [here + "/new.txt"])
        let report = await PlaceTransfer(from: place(), to: place())
            .copy(FileOperation(kind: .copy, sources: [here + "/new.txt"], destination: there), events: FileOperationEvents(), journal: journal)
        #expect(report.done == [here + "/new.txt"], "\(report.failures)")
        #expect(report.removedLeftovers == [leftover], "\(report.summary)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(FileManager.default.fileExists(atPath: live), "a live process's temporary stays")
        let record = try JSONDecoder().decode(TransferJournal.Record.self, from: Data(contentsOf: URL(fileURLWithPath: journals + "/copy-\(dead)-1.json")))
        #expect(record.items.first?.temporary == nil && record.items.first?.reason?.contains("removed by a later copy") == true, "\(record)")
    }

    /// A copy keeps read, write and execute for all three and the sticky bit; set-user-ID and
    /// set-group-ID are dropped (the copy is the copier's), as cp without -p drops them.
    @Test func aCopyKeepsReadWriteExecuteAndStickyButNotSetID() {
        #expect(PlaceTransfer.keptMode(0o4755) == 0o755)
        #expect(PlaceTransfer.keptMode(0o2750) == 0o750)
        #expect(PlaceTransfer.keptMode(0o1777) == 0o1777)
        #expect(PlaceTransfer.keptMode(0o100600) == 0o600)
    }
}
