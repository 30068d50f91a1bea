import SystemKit
import Testing
@testable import BrowserCore
import FileSystemKit

@Suite struct MountTableTests {
    static let sample = """
    22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw
    23 22 0:21 / /proc rw,nosuid shared:5 - proc proc rw
    24 22 0:5 / /dev rw,nosuid shared:2 - devtmpfs udev rw,size=8000k
    40 22 8:17 / /media/me/USB\\040STICK rw,nosuid,nodev shared:30 - vfat /dev/sdb1 rw,fmask=0022
    41 22 0:50 / /mnt/photos rw,relatime shared:31 - cifs //nas/photos rw,vers=3.0
    42 22 0:51 / /home/me/remote rw,nosuid shared:32 - fuse.sshfs me@host:/srv ro
    43 22 0:52 / /run/user/1000/doc rw - fuse.portal portal rw
    44 22 0:53 / /tmp/mnt rw - fuse.faultfs faultfs rw,user_id=0
    garbage line
    """

    @Test func linesParseWithEscapedPaths() {
        let mounts = MountTable.parse(Self.sample)
        #expect(mounts.count == 8)
        #expect(mounts[3].mountPoint == "/media/me/USB STICK" && mounts[3].fsType == "vfat" && mounts[3].source == "/dev/sdb1")
        #expect(mounts[5].superOptions == ["ro"] && mounts[5].isReadOnly && !mounts[4].isReadOnly)
        #expect(mounts[0].device == "259:2")
    }

    @Test func volumesAreClassifiedFromWhatTheKernelSays() {
        let kinds = MountTable.parse(Self.sample).map { VolumeClassifier.kind(of: $0, isRemovableDevice: $0.device == "8:17") }
        #expect(kinds == [.local, .hidden, .hidden, .removable, .network, .network, .hidden, .network])
        let share = MountTable.parse(Self.sample)[4]
        #expect(VolumeClassifier.label(of: share, kind: .network) == "photos on nas")
        let usbDiskWithoutFATButRemovableFlag = MountTable.Mount(id: 1, parentID: 0, device: "8:33", mountPoint: "/media/x", options: [], fsType: "ext4", source: "/dev/sdc1", superOptions: [])
        #expect(VolumeClassifier.kind(of: usbDiskWithoutFATButRemovableFlag, isRemovableDevice: true) == .removable)
    }

    @Test func theVolumeOfAPathIsTheLongestMountPointAboveIt() {
        let volumes = ["/", "/mnt/photos", "/mnt/photos2"].map { Volume(mountPoint: $0, fsType: "x", source: "x", device: "0:1", kind: .local, isReadOnly: false, label: $0) }
        #expect(Volume.containing("/mnt/photos/2024/a.jpg", in: volumes)?.mountPoint == "/mnt/photos")
        #expect(Volume.containing("/mnt/photos2", in: volumes)?.mountPoint == "/mnt/photos2")
        #expect(Volume.containing("/mnt/photosX", in: volumes)?.mountPoint == "/")
    }
}

@Suite struct VolumeStateTests {
    private func volume(_ mountPoint: String, kind: Volume.Kind = .network) -> VolumeMonitor.Status {
        VolumeMonitor.Status(volume: Volume(mountPoint: mountPoint, fsType: "cifs", source: "//nas/x", device: "0:9", kind: kind, isReadOnly: false, label: "x on nas"))
    }

    @Test func aStalledListingShowsWaitingUntilEntriesArrive() {
        var state = BrowserState(folder: "/mnt/share")
        _ = state.start()
        state.apply(.listingStalled(ticket: 1, volume: "x on nas"))
        #expect(state.waitingFor == "x on nas")
        state.apply(.listed(ticket: 1, entries: EntryStore([Entry(name: "a")]), complete: false))
        #expect(state.waitingFor == nil)
        state.apply(.listingStalled(ticket: 0, volume: "old"))
        #expect(state.waitingFor == nil, "a stall of an earlier listing is ignored")
    }

    @Test func aGoneVolumeLeavesWithABannerUntilTheUserMovesOn() {
        var state = BrowserState(folder: "/mnt/share/deep")
        _ = state.start()
        let effects = state.apply(.volumeGone(label: "x on nas", fallback: "/mnt"))
        #expect(effects == [.list(folder: "/mnt", ticket: 2)])
        #expect(state.banner == "x on nas was disconnected" && state.folder == "/mnt")
        state.apply(.listed(ticket: 2, entries: EntryStore([Entry(name: "share", isDirectory: true)]), complete: true))
        _ = state.apply(.navigation(.open))
        #expect(state.banner == nil)
    }

    @Test func theVolumesViewOpensAVolume() {
        var state = BrowserState(folder: "/home")
        _ = state.start()
        state.apply(.volumesChanged([volume("/", kind: .local), volume("/mnt/share")]))
        state.apply(.volumes(.toggle))
        #expect(state.overlay == .volumes && state.volumeCursor == 0)
        state.apply(.navigation(.moveDown(1)))
        let effects = state.apply(.navigation(.open))
        #expect(effects == [.list(folder: "/mnt/share", ticket: 2)] && state.overlay == nil)
    }
}

@Suite struct VolumeIOTests {
    @Test func aStuckCallTimesOutAndItsVolumeTakesNoMoreUntilItReturns() async throws {
        let io = VolumeIO(maximumAbandoned: 4)
        let release = DispatchSemaphoreBox()
        let outcome = await withCheckedContinuation { continuation in
            io.run(volume: "/mnt/dead", deadline: 0.2, { release.wait(); return 1 }, completion: { continuation.resume(returning: "\($0)") })
        }
        #expect(outcome == "timedOut")
        #expect(!io.isResponding("/mnt/dead") && io.abandonedCount == 1)
        let refused = await withCheckedContinuation { continuation in
            io.run(volume: "/mnt/dead", deadline: 1, { 2 }, completion: { continuation.resume(returning: "\($0)") })
        }
        #expect(refused == "refused")
        let other = await withCheckedContinuation { continuation in
            io.run(volume: "/", deadline: 1, { 3 }, completion: { continuation.resume(returning: "\($0)") })
        }
        #expect(other == "done(3)", "other volumes carry on")
        release.signal()
        for _ in 0..<100 where !io.isResponding("/mnt/dead") { try await Task.sleep(for: .milliseconds(10)) }
        #expect(io.isResponding("/mnt/dead") && io.abandonedCount == 0)
    }

    @Test func aHeartbeatKeepsALongCallAlive() async {
        let io = VolumeIO()
        let outcome = await withCheckedContinuation { continuation in
            io.run(volume: "/slow", deadline: 0.15, { heartbeat in
                for _ in 0..<6 { usleep(50_000); heartbeat.beat() }
                return "listed"
            }, completion: { continuation.resume(returning: "\($0)") })
        }
        #expect(outcome == "done(\"listed\")")
    }
}

import Dispatch
#if canImport(Glibc)
import Glibc
#endif

final class DispatchSemaphoreBox: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { semaphore.wait() }
    func signal() { semaphore.signal() }
}

@Suite struct JobStateTests {
    private func state(on kind: Volume.Kind) -> BrowserState {
        var state = BrowserState(folder: "/mnt/share")
        _ = state.start()
        let volume = Volume(mountPoint: "/mnt/share", fsType: "cifs", source: "//nas/share", device: "0:9", kind: kind, isReadOnly: false, label: "share")
        state.apply(.volumesChanged([VolumeMonitor.Status(volume: volume)]))
        state.apply(.listed(ticket: 1, entries: EntryStore([Entry(name: "2024", isDirectory: true), Entry(name: "a.jpg")]), complete: true))
        return state
    }

    @Test func onALocalDiskTStartsAtOnceOnTheFolderUnderTheCursor() {
        var local = state(on: .local)
        #expect(local.apply(.jobs(.startBatch)) == [.startBatch(folder: "/mnt/share/2024", shared: false)])
        local.apply(.navigation(.moveDown(1)))
        #expect(local.apply(.jobs(.startBatch)) == [.startBatch(folder: "/mnt/share", shared: false)], "on a file: the current folder")
    }

    @Test func onAShareTAsksWhetherToWriteSharedThumbnails() {
        var share = state(on: .network)
        #expect(share.apply(.jobs(.startBatch)).isEmpty && share.overlay == .confirmBatch(folder: "/mnt/share/2024"))
        #expect(share.apply(.jobs(.confirmBatch(shared: true))) == [.startBatch(folder: "/mnt/share/2024", shared: true)] && share.overlay == nil)
        _ = share.apply(.jobs(.startBatch))
        #expect(share.apply(.screen(.closeOverlay)).isEmpty && share.overlay == nil, "Esc starts nothing")
    }

    @Test func theJobsPanelCancelsRunningAndResumesStoppedJobs() {
        var state = state(on: .local)
        var running = JobStatus(id: 1, folder: "/mnt/share/2024", writesShared: false)
        running.phase = .running
        var stopped = JobStatus(id: 2, folder: "/mnt/share", writesShared: true)
        stopped.phase = .interrupted("share was disconnected")
        stopped.total = 10
        stopped.generated = 4
        state.apply(.jobChanged(running))
        state.apply(.jobChanged(stopped))
        state.apply(.jobs(.toggle))
        #expect(state.overlay == .jobs && state.jobCursor == 1)
        #expect(state.apply(.jobs(.cancel)).isEmpty, "a stopped job cannot be cancelled")
        #expect(state.apply(.navigation(.open)) == [.startBatch(folder: "/mnt/share", shared: true)])
        state.apply(.navigation(.moveUp(1)))
        #expect(state.apply(.jobs(.cancel)) == [.cancelJob(id: 1)])
        #expect(stopped.report == "4 made, 0 already cached, 6 not done")
    }
}

@Suite struct VolumeCapabilitiesTests {
    @Test func fatRulesComeFromTheFilesystemType() {
        let fat = VolumeCapabilities.probe(folder: "/nonexistent-qlbrowse", fsType: "fuse.fusefat", trial: false)
        #expect(fat.maximumFileSize == 4 * 1024 * 1024 * 1024 - 1 && fat.supportsSymlinks == false)
        #expect(fat.problem(withName: "a:b.txt")?.contains(":") == true)
        #expect(fat.problem(withName: "plain.txt") == nil)
        #expect(fat.problem(withName: String(repeating: "x", count: 300))?.contains("longer") == true)
        #expect(fat.summary.contains("files ≤ 4 GiB"))
    }

    @Test func aTrialSettlesCaseAndSymlinksOnARealFolder() throws {
        let folder = "/tmp/qlbrowse-capabilities-\(getpid())"
        mkdir(folder, 0o700)
        defer { rmdir(folder) }
        let found = VolumeCapabilities.probe(folder: folder, fsType: "ext4", trial: true)
        #expect(found.isCaseInsensitive == false && found.supportsSymlinks == true && !found.isReadOnly)
        let leftovers = try #require(opendir(folder))
        var names: [String] = []
        while let entry = readdir(leftovers) {
            names.append(withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) })
        }
        closedir(leftovers)
        #expect(names.sorted() == [".", ".."], "the trial files are removed")
    }
}
