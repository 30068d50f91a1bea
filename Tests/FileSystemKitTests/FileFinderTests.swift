import Foundation
import Synchronization
import Testing
@testable import FileSystemKit

/// Finding names: the fuzzy rule, smart case, the order of the best, the walk that stays on its
/// volume and skips hidden files, and queries that change while the walk goes on.
@Suite struct FileFinderTests {
    @Test func lettersInOrderMatchAndTheFilesOwnNameComesFirst() {
        let match = FuzzyMatch("hol23")
        #expect(match.cost("holiday/2023/beach.jpg") != nil)
        #expect(match.cost("2023/holiday.jpg") == nil, "order matters")
        let beach = FuzzyMatch("beach")
        let inName = beach.cost("photos/beach.jpg")!, inFolder = beach.cost("beach/photo.jpg")!
        #expect(inName < inFolder, "a match in the file's own name ranks above one in a folder's")
        #expect(beach.cost("beach.jpg")! < beach.cost("b-e-a-c-h.jpg")!, "letters together rank above letters apart")
        #expect(beach.cost("a/beach.jpg")! < beach.cost("a/b/c/beach.jpg")!, "a shorter path ranks above a longer one")
    }

    @Test func caseMattersOnlyWhenTheQueryHasACapital() {
        #expect(FuzzyMatch("readme").cost("docs/README.md") != nil)
        #expect(FuzzyMatch("README").cost("docs/readme.md") == nil)
        #expect(FuzzyMatch("Read").cost("Readme.md") != nil)
        #expect(FuzzyMatch("").cost("anything") != nil, "an empty query matches everything")
    }

    private func tree() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("finder-\(UUID().uuidString.prefix(8))").path
        for folder in ["a/b/c/d", "other", ".hidden", "mnt/elsewhere"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["a/b/c/d/needle.jpg", "a/notes.txt", "other/needles.txt", ".hidden/needle.txt", "mnt/elsewhere/needle.png"] {
            FileManager.default.createFile(atPath: root + "/" + file, contents: Data("x".utf8))
        }
        for index in 0..<3000 { FileManager.default.createFile(atPath: root + "/other/file\(index).txt", contents: nil) }
        return root
    }

    private func find(_ query: String, in root: String, hidden: Bool = false, skipping: [String] = []) -> FileFinder.Report? {
        let done = DispatchSemaphore(value: 0), last = Mutex<FileFinder.Report?>(nil)
        let finder = FileFinder(root: root, showsHidden: hidden, skipping: skipping) { report in
            last.withLock { $0 = report }
            if report.complete { done.signal() }
        }
        finder.search(query)
        finder.start()
        _ = done.wait(timeout: .now() + 20)
        return last.withLock { $0 }
    }

    @Test func theWalkFindsDeepNamesLeavesOutHiddenOnesAndOtherVolumes() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try #require(find("needle", in: root, skipping: [root + "/mnt/elsewhere", "/"]))
        #expect(report.complete && report.best == ["other/needles.txt", "a/b/c/d/needle.jpg"], "\(report.best)")
        #expect(report.walked > 3000 && report.matched == 2)
        let hidden = try #require(find("needle", in: root, hidden: true))
        #expect(hidden.best.contains(".hidden/needle.txt") && hidden.best.contains("mnt/elsewhere/needle.png"))
    }

    @Test func aQueryChangedDuringTheWalkGetsEveryMatchOfTheNewQuery() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let done = DispatchSemaphore(value: 0), last = Mutex<FileFinder.Report?>(nil)
        let finder = FileFinder(root: root, showsHidden: false, skipping: []) { report in
            last.withLock { $0 = report }
            if report.complete && report.query == "file29" { done.signal() }
        }
        finder.search("f")
        finder.start()
        finder.search("fi")
        finder.search("file2")
        finder.search("file29")
        _ = done.wait(timeout: .now() + 20)
        let report = try #require(last.withLock { $0 })
        // file29, file290–299, file2900–2999, and names with those letters in order across the path.
        #expect(report.query == "file29" && report.best.first == "other/file29.txt", "\(report.best.prefix(3))")
        #expect(report.matched == Set((0..<3000).map { "file\($0).txt" }.filter { FuzzyMatch("file29").cost("other/" + $0) != nil }).count)
    }

    /// A place that walks its own folders (SFTP, over the link) feeds the finder: the names it
    /// hands are ranked as a walk's (relative paths, bytes kept), the last hand completes it.
    @Test func namesHandedByAnotherWalkAreRankedAsTheWalksOwn() throws {
        let done = DispatchSemaphore(value: 0), last = Mutex<FileFinder.Report?>(nil)
        let finder = FileFinder(root: "/nowhere", showsHidden: false, skipping: []) { report in
            last.withLock { $0 = report }
            if report.complete { done.signal() }
        }
        let odd: [UInt8] = Array("ne".utf8) + [0xE9] + Array("dle".utf8)
        finder.search("needle")
        finder.add([(folder: [], names: [Array("a".utf8), Array("needle.txt".utf8)])], complete: false)
        finder.add([(folder: Array("a".utf8), names: [Array("b".utf8)]), (folder: Array("a/b".utf8), names: [odd, Array("other".utf8)])],
                   unreadable: 2, complete: true)
        _ = done.wait(timeout: .now() + 20)
        let report = try #require(last.withLock { $0 })
        #expect(report.complete && report.walked == 5 && report.unreadable == 2)
        #expect(report.best == ["needle.txt"], "the odd name's é is not an e: \(report.best)")
        finder.search("dle")
        for _ in 0..<400 where last.withLock({ $0?.query }) != "dle" { usleep(50_000) }
        #expect(Set(last.withLock { $0?.best.map(\.fileSystemBytes) } ?? []) == [Array("needle.txt".utf8), Array("a/b/".utf8) + odd], "ranked again, bytes kept")
    }
}
