import Foundation
import Testing

/// The architecture rules of issue #11, read from Package.swift and the sources by
/// `scripts/architecture.py`: no Swift file in Sources over 300 lines, `import C…` only in the
/// system layer, the providers, the graphics drivers and the curses screen, every import declared in
/// Package.swift, and docs/ARCHITECTURE.md's module diagram the one Package.swift gives.
@Suite struct ArchitectureTests {
    /// Runs the script on a thread of its own: it takes seconds of a core, and on one of the
    /// test run's two cooperative threads it held up every test waiting for one (CI stalled).
    private func python(_ arguments: [String]) async -> TestEnvironment.Result {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: TestEnvironment.run("/usr/bin/python3", arguments, currentDirectory: TestEnvironment.root))
            }
        }
    }

    @Test func packageFollowsTheArchitectureRules() async {
        let result = await python(["scripts/architecture.py", "--check-doc", "docs/ARCHITECTURE.md"])
        #expect(result.status == 0, "scripts/architecture.py found problems:\n\(result.stdout)\(result.stderr)")
    }

    @Test func architectureScriptReadsPackagesAndSources() async {
        let result = await python(["Tests/Support/architecture_test.py"])
        #expect(result.status == 0, "Tests/Support/architecture_test.py failed:\n\(result.stdout)\(result.stderr)")
    }
}
