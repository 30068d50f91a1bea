import SystemKit
#if canImport(Glibc)
import Glibc
#endif

extension WorkerPool {
    /// The worker executable: `$QLBROWSE_THUMBNAILER`, else `qlbrowse-thumbnailer` beside this
    /// program (a build folder), else in `../libexec/qlbrowse/` from this program's folder (an
    /// installed or unpacked package: `/usr/bin/qlbrowse` → `/usr/libexec/qlbrowse/`), else on `PATH`.
    public static func defaultExecutable() -> String {
        if let override = getenv("QLBROWSE_THUMBNAILER"), override.pointee != 0 { return String(cString: override) }
        if let folder = OwnExecutable.folder {
            for candidate in [folder + "/qlbrowse-thumbnailer", folder + "/../libexec/qlbrowse/qlbrowse-thumbnailer"]
            where access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return "qlbrowse-thumbnailer"
    }

    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
