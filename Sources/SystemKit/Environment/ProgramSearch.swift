#if canImport(Glibc)
import Glibc
#endif

/// Finding a program as a shell would: on `PATH`, or at the path given.
public enum ProgramSearch {
    /// The process's `PATH`, with the usual default when unset.
    public static var processSearchPath: String {
        ProcessEnvironment.variable("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
    }

    /// The absolute path of an executable: `program` itself when it contains a slash, else the
    /// first match in `searchPath` (colon separated, as `PATH`; the process's by default). Nil
    /// when there is none.
    public static func executable(_ program: String, searchPath: String = processSearchPath) -> String? {
        if program.contains("/") { return isExecutableFile(program) ? program : nil }
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + program
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
