#if canImport(Glibc)
import Glibc
#endif

extension WorkerPool {
    /// The worker executable: `$QLBROWSE_THUMBNAILER`, else `qlbrowse-thumbnailer` beside this
    /// program (a build folder), else in `../libexec/qlbrowse/` from this program's folder (an
    /// installed or unpacked package: `/usr/bin/qlbrowse` → `/usr/libexec/qlbrowse/`), else on `PATH`.
    public static func defaultExecutable() -> String {
        if let override = getenv("QLBROWSE_THUMBNAILER"), override.pointee != 0 { return String(cString: override) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let own = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = own.lastIndex(of: "/") {
                let folder = String(own[...slash])
                for candidate in [folder + "qlbrowse-thumbnailer", folder + "../libexec/qlbrowse/qlbrowse-thumbnailer"]
                where access(candidate, X_OK) == 0 {
                    return candidate
                }
            }
        }
        return "qlbrowse-thumbnailer"
    }

    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
