import Foundation

/// Another account on this machine, for tests where someone else writes into a shared folder: made
/// with `useradd` when missing (CI runs the tests as root), and acted as with `runuser`.
enum SecondUser {
    static let name = "qlbrowse-other"

    /// Whether this run can make and become the second user (root, with useradd and runuser).
    static let isAvailable: Bool = getuid() == 0
        && ["/usr/sbin/useradd", "/usr/sbin/runuser"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    /// Makes the account when it does not exist yet (no home, no login shell).
    static func ensure() throws {
        if getpwnam(name) != nil { return }
        let made = TestEnvironment.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
        guard made.status == 0 || getpwnam(name) != nil else { throw Failure.useradd(made.stderr) }
    }

    /// Runs the shell `script` as the second user; `arguments` are its `$1`, `$2`…
    @discardableResult
    static func run(_ script: String, _ arguments: String...) -> TestEnvironment.Result {
        TestEnvironment.run("/usr/sbin/runuser", ["-u", name, "--", "/bin/sh", "-c", script, "sh"] + arguments)
    }

    enum Failure: Error { case useradd(String) }
}
