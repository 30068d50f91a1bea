/// What `qlbrowse --version` reports: the release number (which the Debian package's version
/// follows; `scripts/package` reads it from here) and the git commit the binary was built from.
///
/// The commit comes from `BuildCommit.generated.swift`, which `scripts/package` writes (git-ignored)
/// for the build it packages and removes afterwards. Without that file (a plain `swift build`) the
/// protocol extension's "unknown" applies: a member of `BuildInfo`'s own extension, when the file
/// exists, takes precedence over the protocol's default.
enum BuildInfo: BuildCommitDefault {
    static let version = "0.1.0"

    /// `0.1.0 (commit 1a2b3c4d5e6f)`, or `(commit unknown)` when not built by `scripts/package`.
    static var versionLine: String { "\(version) (commit \(commit))" }
}

/// Supplies `commit` when no generated file does.
protocol BuildCommitDefault {}

extension BuildCommitDefault {
    /// The commit a plain `swift build` reports: it cannot know one.
    static var commit: String { "unknown" }
}
