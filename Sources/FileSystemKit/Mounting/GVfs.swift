import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The user's GVfs session, where it runs: whether it answers, what `gio mount` is told on its
/// standard input, and which folder under `$XDG_RUNTIME_DIR/gvfs/` (gvfsd-fuse's mount) a
/// server mounted through it appears in. Connecting through GVfs shares the connection with the
/// desktop (Files, other GIO programs) instead of mounting a second one beside it.
public enum GVfs {
    /// gvfsd-fuse's folder: `$XDG_RUNTIME_DIR/gvfs`; nil without a runtime folder.
    public static func root(environment: ProcessEnvironment) -> String? {
        environment.runtimeDirectory.map { $0 + "/gvfs" }
    }

    /// Whether GVfs runs for this user: a session bus (DBUS_SESSION_BUS_ADDRESS or
    /// `$XDG_RUNTIME_DIR/bus`), gvfsd-fuse's mount at `$XDG_RUNTIME_DIR/gvfs` in the mount table
    /// (gvfsd starts it; without it a GVfs mount has no folder to open), and `gio mount -l`
    /// answering within 3 s. The first two are kernel memory; gio runs only when they hold.
    public static func isAvailable(environment: ProcessEnvironment = .current, mountinfoPath: String = "/proc/self/mountinfo") -> Bool {
        guard let root = root(environment: environment), let runtime = environment.runtimeDirectory else { return false }
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil || access(runtime + "/bus", F_OK) == 0 else { return false }
        guard let bytes = FileDescriptorReader.readFile(mountinfoPath, upTo: 4 << 20),
              MountTable.parse(bytes: bytes).contains(where: { $0.mountPoint == root && $0.fsType == "fuse.gvfsd-fuse" }),
              ProgramSearch.executable("gio") != nil else { return false }
        return CommandRun.run(["gio", "mount", "-l"], seconds: 3).succeeded
    }

    /// Whether `path` is a folder GVfs mounted a server in (one level under its root).
    public static func isMountFolder(_ path: String, environment: ProcessEnvironment) -> Bool {
        guard let root = root(environment: environment), path.hasPrefix(root + "/") else { return false }
        return !path.dropFirst(root.count + 1).contains("/")
    }

    /// What `gio mount` reads on standard input, in the order it asks: for SMB the user (empty:
    /// the default it offers), the domain (empty: its default) and the password; for SFTP the
    /// password alone. Nothing without a password: gio then finds its input ended and gives up.
    public static func answers(for address: ServerAddress, password: String?) -> [UInt8] {
        guard let password else { return [] }
        switch address.scheme {
        case .smb: return Array(((address.user ?? "") + "\n\n" + password + "\n").utf8)
        case .sftp: return Array((password + "\n").utf8)
        }
    }

    /// The folder gvfsd-fuse shows `address` in, among `names` (the root's entries): named after
    /// the mount's spec, `smb-share:server=nas,share=pub,user=ann` or
    /// `sftp:host=nas,port=2222,user=ann` (values %-escaped, keys in any order).
    public static func folderName(for address: ServerAddress, among names: [String]) -> String? {
        names.first { name in
            guard let colon = name.firstIndex(of: ":") else { return false }
            let type = name[..<colon]
            var keys: [String: String] = [:]
            for pair in name[name.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                keys[String(pair[..<equals])] = ServerAddress.decoded(String(pair[pair.index(after: equals)...]))
            }
            let same = { (value: String?, wanted: String?) in wanted == nil || value?.lowercased() == wanted?.lowercased() }
            // No port in the folder's name is the scheme's own.
            let port = (keys["port"].flatMap { Int($0) } ?? address.scheme.defaultPort) == (address.port ?? address.scheme.defaultPort)
            switch address.scheme {
            case .smb: return type == "smb-share" && port && same(keys["server"], address.host) && same(keys["share"], address.share) && same(keys["user"], address.user)
            case .sftp: return type == "sftp" && port && same(keys["host"], address.host) && same(keys["user"], address.user)
            }
        }
    }

    /// How many times gio asked for a password in `output` (it asks again after a wrong one).
    static func passwordPrompts(_ output: String) -> Int {
        output.ranges(of: "Password").count
    }
}
