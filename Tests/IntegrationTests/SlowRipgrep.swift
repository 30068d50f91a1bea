import Foundation
import Places
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A remote whose ripgrep is slow on purpose, to see it stopped: `qlbrowse serve` runs with a
/// PATH whose `rg` is the real one with a preprocessor (`--pre`) that takes three seconds for each
/// file under `slow/` (none of which holds the word searched), so ripgrep is still running,
/// by its own name, seconds after the other files' matches came.
enum SlowRipgrep {
    /// The remote command with the slow `rg` first on its PATH, and the slow files' folder.
    static func make(in ssh: LoopbackSSH, files: String, slowFiles: Int) throws -> (remoteCommand: String, slowFolder: String) {
        let bin = ssh.folder.appendingPathComponent("slow-bin").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try TestEnvironment.writeFile("#!/bin/sh\nexec /usr/bin/rg --pre \(bin)/slowcat \"$@\"\n", to: bin + "/rg")
        try TestEnvironment.writeFile("#!/bin/sh\ncase \"$1\" in */slow/*) sleep 3 ;; esac\nexec cat \"$1\"\n", to: bin + "/slowcat")
        let slow = files + "/slow"
        try FileManager.default.createDirectory(atPath: slow, withIntermediateDirectories: true)
        for index in 0..<slowFiles { LoopbackSSH.write(slow + "/s\(index).txt", Array("slow\n".utf8)) }
        return (withPath(bin + ":/usr/local/bin:/usr/bin:/bin", ssh.remoteCommand), slow)
    }

    /// `remoteCommand` (`env VAR=… qlbrowse`) with `PATH` set for `qlbrowse serve`.
    static func withPath(_ path: String, _ remoteCommand: String) -> String {
        "env PATH=\(path) " + remoteCommand.dropFirst("env ".count)
    }

    /// The ripgrep processes (by their name) whose command line names `folder` or a folder
    /// above it: the test's own, whatever else runs beside.
    static func running(below folder: String) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), TmuxSession.command(of: pid) == "rg", TmuxSession.isRunning(pid) else { return nil }
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.contains { folder.hasPrefix($0) && $0.hasPrefix("/") && !$0.hasSuffix("slowcat") } ? pid : nil
        }
    }
}

extension LoopbackSSH {
    /// Polls `condition` without holding a thread until it holds or `seconds` pass: a hang
    /// guard, not a timing.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    /// A remote place on this server run by `remoteCommand` (connected off the cooperative threads).
    func place(_ path: String, remoteCommand: String) async throws(FileSystemError) -> RemotePlace {
        let address = RemoteAddress.parse(url(path))!
        let command = RemoteCommand(sshCommand: sshCommand, remoteCommand: remoteCommand)
        let result: Result<RemotePlace, FileSystemError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(FileSystemError) {
                    continuation.resume(returning: .success(try RemotePlace(connectingTo: address, command: command, connectSeconds: 20)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
