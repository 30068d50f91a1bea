import Foundation
import Places
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

extension LoopbackSSH {
    /// A remote place on this server, connected off the cooperative threads (the handshake blocks).
    func place(_ path: String, sshCommand: String? = nil, version: Int = RemoteCodec.version, callDeadline: Double = 5,
                 thumbnailDeadline: Double = 60, through relay: LinkRelay? = nil) async throws(FileSystemError) -> RemotePlace {
        let address = RemoteAddress.parse(url(path, port: relay?.port))!
        let command = RemoteCommand(sshCommand: sshCommand ?? self.sshCommand, remoteCommand: remoteCommand)
        let result: Result<RemotePlace, FileSystemError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(FileSystemError) {
                    continuation.resume(returning: .success(try RemotePlace(connectingTo: address, command: command, protocolVersion: version,
                                                                            callDeadline: callDeadline, listingDeadline: callDeadline,
                                                                            thumbnailDeadline: thumbnailDeadline, connectSeconds: 20)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// An SFTP place on this server (its sshd's internal-sftp), connected off the cooperative threads.
    func sftpPlace(_ path: String, sshCommand: String? = nil, callDeadline: Double = 5, fileCache: SFTPFileCache? = nil,
                   thumbnails: ThumbnailGenerator? = nil, through relay: LinkRelay? = nil) async throws(FileSystemError) -> SFTPPlace {
        let address = RemoteAddress.parse(url(path, port: relay?.port))!
        let command = RemoteCommand(sshCommand: sshCommand ?? self.sshCommand, remoteCommand: folder.path + "/no-such-qlbrowse")
        let result: Result<SFTPPlace, FileSystemError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(FileSystemError) {
                    continuation.resume(returning: .success(try SFTPPlace(connectingTo: address, command: command, callDeadline: callDeadline,
                                                                          listingDeadline: callDeadline, connectSeconds: 20,
                                                                          fileCache: fileCache, thumbnails: thumbnails)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Cuts `place`'s link as a dropped connection would: kills its ssh process (under the
    /// shell that runs the ssh command), and only that one (other suites run beside).
    static func cut(_ place: RemotePlace) {
        guard let root = place.linkProcessID else { return }
        let ssh = ([root] + descendants(of: root)).filter { pid in
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return cmdline.split(separator: 0).first.map { String(decoding: $0, as: UTF8.self).hasSuffix("ssh") } ?? false
        }
        for pid in ssh { kill(pid, SIGKILL) }
    }

    /// Writes `bytes` as the file at `path`.
    static func write(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = FileDescriptorWriter.writeAll(bytes, to: fd)
        close(fd)
    }

    /// The inotify descriptors the remote's `qlbrowse serve` processes hold with a watch added
    /// (fdinfo's `inotify wd:` lines): a descriptor is made before its watch is added, and a file
    /// made between the two is never heard.
    func serveInotifyWatches() -> Int {
        servers().reduce(0) { total, pid in
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return total + fds.filter { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == "anon_inode:inotify"
                    && ((try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)) ?? "").contains("inotify wd:")
            }.count
        }
    }

    /// Waits (up to `seconds`: a hang guard; the whole suite shares two cores) until the remote
    /// holds `count` watching inotify descriptors. The watch is asked after the listing, and its
    /// "list again" comes before the request is sent: a file made before it is in place is not
    /// the watch's to report.
    func waitForServeInotify(_ count: Int, seconds: Double = 60) async -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while serveInotifyWatches() != count, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(20)) }
        return serveInotifyWatches() == count
    }

    /// The same for synchronous tests (the browser's: it runs in a process of its own).
    func waitForServeInotify(_ count: Int, seconds: Double = 60) -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while serveInotifyWatches() != count, ContinuousClock.now < end { usleep(20_000) }
        return serveInotifyWatches() == count
    }
}
