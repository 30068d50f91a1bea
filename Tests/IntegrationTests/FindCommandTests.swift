import Foundation
import Testing

/// Finding names: `qlbrowse find` for scripts, and `F` in the browser among 20,000 files read
/// from the screen (Tests/Support/find-latency.py; its strict times are Benchmarks/find.py's).
@Suite(.serialized) struct FindCommandTests {
    @Test func findPrintsTheBestOrEveryMatchAndSaysWhenNothingMatches() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-find")
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in ["holiday/2023/beach.jpg", "holiday/2022/hills.jpg", "work/report-2023.pdf", ".secret/beach-2023.txt"] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let best = TestEnvironment.run(TestEnvironment.qlbrowse, ["find", "23bea", folder.path])
        #expect(best.status == 0 && best.stdout == "holiday/2023/beach.jpg\n", "\(best.stdout)\(best.stderr)")
        let all = TestEnvironment.run(TestEnvironment.qlbrowse, ["find", "--all", "2023", folder.path])
        #expect(Set(all.stdout.split(separator: "\n")) == ["holiday/2023", "holiday/2023/beach.jpg", "work/report-2023.pdf"], "\(all.stdout)")
        let hidden = TestEnvironment.run(TestEnvironment.qlbrowse, ["find", "--hidden", "beach2023", folder.path])
        #expect(hidden.stdout.contains(".secret/beach-2023.txt"), "\(hidden.stdout)")
        let none = TestEnvironment.run(TestEnvironment.qlbrowse, ["find", "zebra", folder.path])
        #expect(none.status == 1 && none.stdout.isEmpty)
        let notAFolder = TestEnvironment.run(TestEnvironment.qlbrowse, ["find", "x", folder.appendingPathComponent("work/report-2023.pdf").path])
        #expect(notAFolder.status != 0 && notAFolder.stderr.contains("is not a folder"))
    }

    @Test func findInTheBrowserAmongTwentyThousandFiles() throws {
        let result = TestEnvironment.runScenario("find-latency.py", folder: "qlbrowse-find-ui", arguments: ["--files", "20000", "--trials", "5"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 5, "\(result.stdout)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/rg"), "needs ripgrep"))
    func tabLooksInsideTheFilesWithRipgrep() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-find-inside")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, text) in [("notes/plan.md", "buy milk\nTODO call the bank\n"), ("notes/done.md", "all done\n"), ("src/main.swift", "// todo: tests\n")] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics none '\(folder.path)'", columns: 120, rows: 30)
        #expect(session.waitFor { $0.contains("sort:name") })
        session.type("F")
        session.send("Tab")
        #expect(session.waitFor { $0.contains("Files containing, below") }, "\(session.screen())")
        session.type("todo")
        #expect(session.waitFor(10) { $0.contains("2 files contain it") && $0.contains("notes/plan.md") && $0.contains("src/main.swift") && !$0.contains("done.md") },
                "smart case: todo finds TODO and todo:\n\(session.screen())")
        session.send("Enter")
        #expect(session.waitFor { $0.contains("/notes") || $0.contains("/src") }, "Enter goes to the file:\n\(session.screen())")
        session.type("q")
    }
}

