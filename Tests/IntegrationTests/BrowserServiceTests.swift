import Foundation
import Testing

/// Browser windows decode their thumbnails in the resident service's workers, shared with each
/// other and with `thumbnail`/`preview` calls, and keep browsing when the service dies.
@Suite(.serialized) struct BrowserServiceTests {
    /// A folder of five pictures (and `more/` with three others, for later).
    private func pictures(_ name: String, in sandbox: ServiceSandbox) throws -> URL {
        let folder = sandbox.folder.appendingPathComponent(name)
        let more = folder.appendingPathComponent("more")
        try FileManager.default.createDirectory(at: more, withIntermediateDirectories: true)
        for file in ["landscape.jpg", "doc.pdf", "clip.mp4", "image.heic", "cmyk.jpg"] {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        for file in ["image.webp", "portrait-exif6.jpg", "clip.mkv"] {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(file), to: more.appendingPathComponent(file))
        }
        return folder
    }

    /// Files with a thumbnail in a freedesktop cache (of any size; one name per file).
    private func cached(_ cache: URL) -> Int {
        let files = FileManager.default.enumerator(atPath: cache.appendingPathComponent("thumbnails").path)?.allObjects as? [String] ?? []
        return Set(files.filter { $0.hasSuffix(".png") && !$0.hasPrefix("fail/") }.map { ($0 as NSString).lastPathComponent }).count
    }

    /// Processes whose parent is `parent`, with their names.
    private func children(of parent: Int32) -> [(pid: Int32, name: String)] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return pids.compactMap { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, Int32(fields[1]) == parent else { return nil }
            return (pid, String(stat[stat.index(after: open)..<close]))
        }
    }

    /// The browser running in a tmux session (a child of the pane's shell).
    private func browserPID(_ session: TmuxSession) throws -> Int32 {
        let shell = try #require(Int32(session.tmux(["list-panes", "-t", session.name, "-F", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        var browser: Int32?
        _ = ServiceSandbox.wait(upTo: 10) {
            browser = children(of: shell).first { $0.name == "qlbrowse" }?.pid
            return browser != nil
        }
        return try #require(browser, "no qlbrowse under the pane's shell")
    }

    /// Distinct colour settings on the screen (whatever colours the terminal is taken to have): a
    /// handful for the interface, many once pictures are drawn.
    private func colours(_ screen: String) -> Int {
        Set(screen.matches(of: /\[((?:3|4|9|10)[0-7]|[34]8;5;[0-9]+|[34]8;2;[0-9;]+)m/).map { String($0.output.1) }).count
    }

    @Test func twoBrowsersShareTheServicesWorkersAndOutliveItsDeath() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let (folderA, folderB) = (try pictures("a", in: sandbox), try pictures("b", in: sandbox))
        let (cacheA, cacheB) = (sandbox.folder.appendingPathComponent("cache-a"), sandbox.folder.appendingPathComponent("cache-b"))
        func browser(_ folder: URL, cache: URL) throws -> TmuxSession {
            try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 30,
                            environment: sandbox.environment.merging(["XDG_CACHE_HOME": cache.path]) { $1 })
        }
        let first = try browser(folderA, cache: cacheA)
        let second = try browser(folderB, cache: cacheB)
        for session in [first, second] { session.send("v") }

        // Both windows get every picture (each its own cache, so each is decoded twice).
        #expect(ServiceSandbox.wait(upTo: 40) { cached(cacheA) == 5 && cached(cacheB) == 5 },
                "cached: \(cached(cacheA)) and \(cached(cacheB)); log: \(sandbox.logText)")
        for session in [first, second] {
            #expect(session.waitFor(20) { _ in colours(session.screen(escapes: true)) >= 12 },
                    "no pictures on screen (\(colours(session.screen(escapes: true))) colours):\n\(session.screen())")
        }
        let service = try #require(sandbox.servicePID, "no service; log: \(sandbox.logText)")
        sandbox.remember()

        // Decoded by the service's workers only: none is a child of a browser, at most one per core
        // and the two the service keeps for embedded previews (ServiceCommand's cheapSlots).
        let browsers = [try browserPID(first), try browserPID(second)]
        for pid in browsers {
            let workers = children(of: pid).filter { $0.name.hasPrefix("qlbrowse-thumb") }
            #expect(workers.isEmpty, "browser \(pid) runs workers of its own: \(workers)")
        }
        #expect(children(of: service).filter { $0.name.hasPrefix("qlbrowse-thumb") }.count >= 1)
        #expect(sandbox.workerStarts <= max(1, ProcessInfo.processInfo.activeProcessorCount) + 2, "\(sandbox.workerStarts) workers for two windows")

        // The service dies (its workers with it): the first window goes on into `more/`, and its
        // pictures come from a fresh service, still not from workers of the browser's own.
        kill(-service, SIGKILL)
        #expect(ServiceSandbox.wait(upTo: 20) { !ServiceSandbox.isAlive(service) })
        first.send("v")
        first.send("g")
        first.send("Enter")
        #expect(ServiceSandbox.wait(upTo: 40) { cached(cacheA) == 8 }, "the pictures of more/ did not come: \(first.screen())")
        let fresh = try #require(sandbox.servicePID, "no new service; log: \(sandbox.logText)")
        sandbox.remember()
        #expect(fresh != service)
        #expect(children(of: browsers[0]).filter { $0.name.hasPrefix("qlbrowse-thumb") }.isEmpty)
        #expect(first.screen().contains("more"), "\(first.screen())")
    }
}
