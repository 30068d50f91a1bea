import Foundation
import Testing

/// The resident per-user thumbnail service, through the real binary: started on demand outside
/// the caller's process group, reused with its warm workers, survived when killed or hung,
/// replaced by a new build, closed to other users, gone when idle, and off when asked.
/// Each test has its own runtime folder (its own service) and kills what it started.
@Suite(.serialized) struct ServiceTests {
    private func fixture(_ name: String) -> String { TestEnvironment.fixtures.appendingPathComponent(name).path }

    /// Runs qlbrowse in a fresh process group (Tests/Support/process-group.py); returns its status
    /// and what of that group was still running after it exited.
    private func runInOwnGroup(_ sandbox: ServiceSandbox, _ arguments: [String]) throws -> (status: Int, left: [String]) {
        defer { sandbox.remember() }
        let helper = TestEnvironment.root.appendingPathComponent("Tests/Support/process-group.py").path
        let result = TestEnvironment.run("/usr/bin/python3", [helper, TestEnvironment.qlbrowse] + arguments, environment: sandbox.environment)
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first, "no report: \(result.stdout) \(result.stderr)")
        let left = (line["left"] as? [[Any]] ?? []).map { $0.map { "\($0)" }.joined(separator: " ") }
        return (line["status"] as? Int ?? -1, left)
    }

    /// A thumbnail call that starts the sandbox's service; its pid.
    private func startService(_ sandbox: ServiceSandbox) throws -> Int32 {
        let call = sandbox.qlbrowse(["thumbnail", "-o", sandbox.folder.path, fixture("landscape.jpg")])
        #expect(call.status == 0, "\(call.stderr)")
        return try #require(sandbox.servicePID, "no service; log: \(sandbox.logText)")
    }

    @Test func aCallStartsTheServiceOutsideItsGroupAndTheNextCallsReuseItsWorkers() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let out = sandbox.folder.path
        let first = try runInOwnGroup(sandbox, ["thumbnail", "-o", out, fixture("landscape.jpg")])
        #expect(first.status == 0)
        #expect(first.left.isEmpty, "left in the caller's group: \(first.left)")
        let service = try #require(sandbox.servicePID, "no service after the first call; log: \(sandbox.logText)")
        #expect(sandbox.workerStarts == 1, "the service starts one worker at once, more when requests come together")

        // Other files, cold cache (a fresh one per call): decoded by the same service's workers;
        // two files at once may start its second worker, never more than one per core.
        let two = try runInOwnGroup(sandbox, ["thumbnail", "--json", "-o", out, fixture("doc.pdf"), fixture("clip.mp4")])
        #expect(two.status == 0)
        #expect(two.left.isEmpty, "left in the caller's group: \(two.left)")
        let started = sandbox.workerStarts
        #expect(started <= max(1, ProcessInfo.processInfo.activeProcessorCount))
        for arguments in [["preview", fixture("landscape.jpg"), "--size", "20x8", "--graphics", "symbols"],
                          ["thumbnail", "-o", out, fixture("tone.wav")]] {
            let run = try runInOwnGroup(sandbox, arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.left.isEmpty, "left in the caller's group after \(arguments[0]): \(run.left)")
        }
        #expect(sandbox.servicePID == service, "the service was replaced")
        #expect(sandbox.workerStarts == started, "\(sandbox.workerStarts - started) worker(s) started beside the service's")
        #expect(FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("doc.pdf.png").path))
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.serviceFolder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func aKilledServiceIsReplacedByTheNextCall() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let first = try startService(sandbox)
        kill(first, SIGKILL)
        #expect(ServiceSandbox.wait(upTo: 20) { !ServiceSandbox.isAlive(first) })
        let again = sandbox.qlbrowse(["thumbnail", "--json", "-o", sandbox.folder.path, fixture("doc.pdf")])
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        let second = try #require(sandbox.servicePID, "no new service; log: \(sandbox.logText)")
        #expect(second != first)
    }

    @Test func aHungServiceDoesNotHangTheNextCall() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let stopped = try startService(sandbox)
        kill(stopped, SIGSTOP)
        defer { kill(stopped, SIGKILL) }
        let call = sandbox.qlbrowse(["thumbnail", "--json", "-o", sandbox.folder.path, fixture("doc.pdf")])
        #expect(call.status == 0, "\(call.stdout) \(call.stderr)")
        #expect(call.seconds < 60)
        #expect(sandbox.servicePID != stopped)
    }

    @Test func aNewBuildReplacesTheService() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let old = try startService(sandbox)
        // Another program file (another inode and time): another build, as after an upgrade.
        let newer = sandbox.folder.appendingPathComponent("qlbrowse-newer").path
        // Copied by cp, not in this process: a copy open for writing here while another test forks
        // reaches that child, and running the copy then fails with "text file busy" (seen in CI).
        #expect(TestEnvironment.run("/bin/cp", [TestEnvironment.qlbrowse, newer]).status == 0)
        let call = sandbox.qlbrowse(["thumbnail", "--json", "-o", sandbox.folder.path, fixture("doc.pdf")], executable: newer)
        #expect(call.status == 0, "\(call.stdout) \(call.stderr)")
        let new = try #require(sandbox.servicePID, "no service of the new build; log: \(sandbox.logText)")
        #expect(new != old)
        #expect(ServiceSandbox.wait(upTo: 20) { !ServiceSandbox.isAlive(old) }, "the old service is still running")
        #expect(sandbox.logText.contains("another build"))
        let command = (try? String(contentsOfFile: "/proc/\(new)/cmdline", encoding: .utf8)) ?? ""
        #expect(command.hasPrefix(newer), "the service runs \(command)")
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root to act as nobody"))
    func anotherUsersConnectionIsRefused() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        _ = try startService(sandbox)
        // Open the folders so that the only thing left between `nobody` and the service is its peer check.
        for path in [sandbox.folder.path, sandbox.runtime.path, sandbox.serviceFolder.path] { chmod(path, 0o755) }
        chmod(sandbox.socket, 0o666)
        let hello = #"{"kind":"hello","id":0,"identity":"x"}"#
        let client = """
            import socket, struct, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(20)
            s.connect(sys.argv[1])
            h = sys.argv[2].encode()
            try:
                s.sendall(struct.pack('<II', len(h), 0) + h)
                print('answer' if s.recv(8) else 'closed')
            except (ConnectionResetError, BrokenPipeError):
                print('closed')
            """
        let result = TestEnvironment.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", client,
                                                              sandbox.socket, hello])
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "closed", "\(result.stdout) \(result.stderr)")
        #expect(ServiceSandbox.wait(upTo: 20) { sandbox.logText.contains("refused a connection from uid 65534") }, "\(sandbox.logText)")
        // Our own calls are still served.
        #expect(sandbox.qlbrowse(["thumbnail", "-o", sandbox.folder.path, fixture("doc.pdf")]).status == 0)
    }

    @Test func anIdleServiceExitsByItself() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let config = sandbox.folder.appendingPathComponent("config/qlbrowse")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "service_idle_seconds = 3\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let service = try startService(sandbox)
        #expect(ServiceSandbox.wait(upTo: 30) { !ServiceSandbox.isAlive(service) }, "still running; log: \(sandbox.logText)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.socket))
        #expect(sandbox.logText.contains("idle"))
    }

    @Test func noServiceFlagConfigKeyAndVariableStartNone() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let run = try runInOwnGroup(sandbox, ["thumbnail", "--no-service", "-o", sandbox.folder.path, fixture("landscape.jpg")])
        #expect(run.status == 0)
        #expect(run.left.isEmpty, "\(run.left)")
        #expect(sandbox.qlbrowse(["preview", "--no-service", fixture("doc.pdf"), "--size", "20x8", "--graphics", "symbols"]).status == 0)
        #expect(sandbox.qlbrowse(["thumbnail", "-o", sandbox.folder.path, fixture("doc.pdf")], environment: ["QLBROWSE_NO_SERVICE": "1"]).status == 0)
        let config = sandbox.folder.appendingPathComponent("config/qlbrowse")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "service = false\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        #expect(sandbox.qlbrowse(["thumbnail", "-o", sandbox.folder.path, fixture("clip.mp4")]).status == 0)
        #expect(sandbox.workerStarts >= 4, "each call used workers of its own")
        #expect(!FileManager.default.fileExists(atPath: sandbox.socket))
        #expect(sandbox.servicePID == nil)
    }

    @Test func aCallAnsweredFromTheCacheStartsNoServiceNorWorker() throws {
        let sandbox = try ServiceSandbox()
        defer { sandbox.stop() }
        let cache = ["XDG_CACHE_HOME": sandbox.folder.appendingPathComponent("cache").path]
        // Cached by a call with its own workers; then the same file, as other programs call it.
        #expect(sandbox.qlbrowse(["thumbnail", "--no-service", "-o", sandbox.folder.path, fixture("doc.pdf")], environment: cache).status == 0)
        let started = sandbox.workerStarts
        let hit = sandbox.qlbrowse(["thumbnail", "-s", "256", "-o", sandbox.folder.path, fixture("doc.pdf")], environment: cache)
        #expect(hit.status == 0, "\(hit.stderr)")
        #expect(hit.stdout.contains(" cache "), "answered from the cache: \(hit.stdout)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.socket), "a cache hit reached for the service")
        #expect(sandbox.servicePID == nil)
        #expect(sandbox.workerStarts == started)
        // The file it wrote is the cache's PNG as it is.
        let written = try #require(FileManager.default.contents(atPath: sandbox.folder.appendingPathComponent("doc.pdf.png").path))
        let stored = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.appendingPathComponent("cache/thumbnails/large").path)
        #expect(stored.count == 1)
        #expect(FileManager.default.contents(atPath: sandbox.folder.appendingPathComponent("cache/thumbnails/large/" + stored[0]).path) == written)
    }

    @Test func aHangingDecoderCostsOneRequestAndTheServiceLivesOn() throws {
        // Workers that hang: the caller's --timeout holds through the service, whose pool kills them.
        let sandbox = try ServiceSandbox(worker: "exec sleep 600")
        defer { sandbox.stop() }
        let call = sandbox.qlbrowse(["thumbnail", "--timeout", "1", "--json", "-o", sandbox.folder.path, fixture("landscape.jpg")])
        #expect(call.status == 1)
        let line = try #require(TestEnvironment.jsonLines(call.stdout).first, "\(call.stderr)")
        #expect((line["error"] as? String)?.contains("gave up after 1.0 s") == true, "\(line)")
        #expect(call.seconds < 15)
        let service = try #require(sandbox.servicePID)
        let again = sandbox.qlbrowse(["thumbnail", "--timeout", "1", "--json", "-o", sandbox.folder.path, fixture("doc.pdf")])
        #expect(again.status == 1)
        #expect(sandbox.servicePID == service, "the service itself must survive its workers' failures")
    }
}
