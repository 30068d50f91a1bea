import Foundation

/// A private world for one test of the resident service: its own runtime folder (so its own
/// service), state folder (the service's log), and a worker wrapper that counts worker starts.
/// `stop()` kills the service and its workers, so no test leaves one running.
final class ServiceSandbox {
    let folder: URL
    let runtime: URL
    let workerLog: String
    let worker: String

    init(worker body: String? = nil) throws {
        folder = TestEnvironment.temporaryFolder("qlbrowse-service")
        runtime = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        workerLog = folder.appendingPathComponent("worker-starts.log").path
        worker = folder.appendingPathComponent("counting-thumbnailer").path
        let run = body ?? "exec '\(TestEnvironment.thumbnailer)' \"$@\""
        try TestEnvironment.writeFile("#!/bin/sh\necho \"$$\" >> '\(workerLog)'\n\(run)\n", to: worker)
    }

    /// The variables that point a call at this sandbox's service (a fresh cache per call stays
    /// TestEnvironment's default).
    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtime.path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
         "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
         "QLBROWSE_NO_SERVICE": "0", "QLBROWSE_THUMBNAILER": worker]
    }

    var serviceFolder: URL { runtime.appendingPathComponent("qlbrowse") }
    var socket: String { serviceFolder.appendingPathComponent("service.sock").path }
    var log: String { folder.appendingPathComponent("state/qlbrowse/service.log").path }
    var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The running service's pid, from its pid file, when that process is alive.
    var servicePID: Int32? {
        let text = (try? String(contentsOf: serviceFolder.appendingPathComponent("service.pid"), encoding: .utf8)) ?? ""
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), Self.isAlive(pid) else { return nil }
        return pid
    }

    /// Worker processes started so far (by any service or call of this sandbox).
    var workerStarts: Int {
        ((try? String(contentsOfFile: workerLog, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// Every service this sandbox saw, to be killed at the end.
    private var seen: Set<Int32> = []

    /// Runs `qlbrowse ARGUMENTS` against this sandbox's service.
    @discardableResult
    func qlbrowse(_ arguments: [String], executable: String = TestEnvironment.qlbrowse, environment extra: [String: String] = [:]) -> TestEnvironment.Result {
        defer { remember() }
        return TestEnvironment.run(executable, arguments, environment: environment.merging(extra) { $1 })
    }

    /// Notes the current service so `stop()` ends it even after it was replaced.
    func remember() {
        if let pid = servicePID { seen.insert(pid) }
    }

    /// Whether a process is alive (a zombie is not).
    static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    /// Waits up to `seconds` for `condition`; a bound that only catches hangs.
    static func wait(upTo seconds: Double, for condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// Kills every service seen (each is a process group leader: its workers go too) and removes the folder.
    func stop() {
        remember()
        for pid in seen {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
