import Foundation
import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse find QUERY ssh://host/path` and `host:path` over a real sshd on loopback (#26): the
/// remote's qlbrowse walks and ranks there, and what is printed is byte for byte what a local
/// find of the same folder prints (a name that is not UTF-8 as its bytes), with the same exit
/// codes; a remote qlbrowse of an older protocol is refused by name.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemoteFindCommandTests {
    let ssh: LoopbackSSH
    let files: String
    let environment: [String: String]

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = ssh.folder.appendingPathComponent("files").path
        for path in ["holiday/2023", "holiday/2022", "work", ".secret"] {
            try FileManager.default.createDirectory(atPath: files + "/" + path, withIntermediateDirectories: true)
        }
        for path in ["holiday/2023/beach.jpg", "holiday/2022/hills.jpg", "work/report-2023.pdf", ".secret/beach-2023.txt",
                     "holiday/2023/" + RemoteFindTests.oddName] {
            LoopbackSSH.write(files + "/" + path, Array("x".utf8))
        }
        environment = ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.remoteCommand,
                       "XDG_CONFIG_HOME": ssh.folder.path + "/local-config"]
    }

    /// `qlbrowse ARGUMENTS`: the exit status, standard output's bytes, standard error.
    private func run(_ arguments: [String], environment extra: [String: String] = [:]) -> (status: Int32, output: [UInt8], errors: String) {
        let out = ssh.folder.appendingPathComponent("out-\(UUID().uuidString)").path
        let result = TestEnvironment.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" > '\(out)'", TestEnvironment.qlbrowse] + arguments,
                                         environment: environment.merging(extra) { _, given in given })
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: out))).map { [UInt8]($0) } ?? []
        return (result.status, bytes, result.stderr)
    }

    @Test func findOnARemoteFolderPrintsWhatALocalFindOfItPrints() throws {
        defer { ssh.stop() }
        for arguments in [["23bea"], ["caf"], ["--best", "2", "2023"], ["--hidden", "beach2023"], ["zebra"]] {
            let local = run(["find"] + arguments + [files])
            let remote = run(["find"] + arguments + [ssh.url(files)])
            #expect(remote.status == local.status && remote.output == local.output,
                    "\(arguments): remote \(remote.status) \(String(decoding: remote.output, as: UTF8.self)) \(remote.errors) local \(local.status) \(String(decoding: local.output, as: UTF8.self))")
        }
        #expect(run(["find", "caf", ssh.url(files)]).output == ("holiday/2023/" + RemoteFindTests.oddName + "\n").fileSystemBytes, "the name's own bytes")
        #expect(run(["find", "zebra", ssh.url(files)]).status == 1, "nothing found: 1, as here")
        // --all prints as the remote's walk finds (its order is the walk's): the same lines.
        let all = run(["find", "--all", "2023", ssh.url(files)]), localAll = run(["find", "--all", "2023", files])
        #expect(all.status == 0 && Set(all.output.split(separator: 0x0A)) == Set(localAll.output.split(separator: 0x0A)) && !all.output.isEmpty)
        // scp's form, the port in the ssh command.
        let scp = run(["find", "23bea", "127.0.0.1:" + files], environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand + " -p \(ssh.port)"])
        #expect(scp.status == 0 && scp.output == Array("holiday/2023/beach.jpg\n".utf8), "\(scp.errors)")
        // Over plain SFTP (no qlbrowse there), walked from here: the same lines too.
        for arguments in [["23bea"], ["caf"], ["--hidden", "beach2023"], ["zebra"]] {
            let local = run(["find"] + arguments + [files])
            let sftp = run(["find"] + arguments + [ssh.url(files)], environment: ["QLBROWSE_SSH_MODE": "sftp"])
            #expect(sftp.status == local.status && sftp.output == local.output, "\(arguments) over SFTP: \(sftp.status) \(sftp.errors)")
        }
        let file = run(["find", "x", ssh.url(files + "/work/report-2023.pdf")])
        #expect(file.status != 0 && file.errors.contains("is not a folder"), "\(file.errors)")
        #expect(TmuxSession.eventually(30) { ssh.servers().isEmpty }, "no qlbrowse left on the remote")
    }

    @Test func anOlderRemoteQlbrowseIsRefusedByName() throws {
        defer { ssh.stop() }
        // What a qlbrowse of protocol version 4 (before searches inside files) says to a hello.
        let script = ssh.folder.appendingPathComponent("v4-qlbrowse").path
        try TestEnvironment.writeFile("""
            #!/usr/bin/env python3
            import json, struct, sys
            head = sys.stdin.buffer.read(16)
            header_length, payload_length, request = struct.unpack("<IIQ", head)
            sys.stdin.buffer.read(header_length + payload_length)
            header = json.dumps({"hello": {"version": 4, "software": "qlbrowse 0.4 (v4)"}}).encode()
            sys.stdout.buffer.write(struct.pack("<IIQ", len(header), 0, request) + header)
            sys.stdout.buffer.flush()

            """, to: script)
        let result = run(["find", "beach", ssh.url(files)], environment: ["QLBROWSE_REMOTE_COMMAND": script])
        #expect(result.status != 0 && result.output.isEmpty)
        #expect(result.errors.contains("the remote qlbrowse speaks version 4, this one \(RemoteCodec.version)"), "\(result.errors)")
        #expect(result.errors.contains("is older: install this version of qlbrowse on 127.0.0.1"), "\(result.errors)")
    }
}
