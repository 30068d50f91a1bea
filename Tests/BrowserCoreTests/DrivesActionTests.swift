import Testing
@testable import BrowserCore
import FileSystemKit

/// Drives and servers in the volumes view (issue 25): drives not mounted after the volumes,
/// Enter mounts, E ejects with the browser's own work named, C and the password asked again up
/// to three times, Esc gives up.
@Suite struct DrivesActionTests {
    static let root = Volume(mountPoint: "/", fsType: "ext4", source: "/dev/sda1", device: "8:1", kind: .local, isReadOnly: false, label: "root")
    static let stick = Volume(mountPoint: "/media/me/STICK", fsType: "vfat", source: "/dev/sdb1", device: "8:17", kind: .removable, isReadOnly: false, label: "STICK")
    static let drive = Drive(device: "/dev/sdc1", fsType: "exfat", label: "CARD", uuid: "1234", size: 1 << 30, isRemovable: true)

    func volumesView() -> BrowserState {
        var state = BrowserState.browsing(["a"])
        state.apply(.volumesChanged([.init(volume: Self.root), .init(volume: Self.stick)]))
        state.apply(.volumes(.toggle))
        return state
    }

    @Test func theViewLooksForDrivesAtOnceAndEveryTwoSecondsWhileOpen() {
        var state = volumesView()
        #expect(state.apply(.tick(now: 10_000_000_000)) == [.drives(.scan)])
        #expect(state.apply(.tick(now: 11_000_000_000)) == [])
        #expect(state.apply(.tick(now: 12_000_000_000)) == [.drives(.scan)])
        state.apply(.screen(.closeOverlay))
        #expect(state.apply(.tick(now: 20_000_000_000)) == [])
    }

    @Test func enterOnADriveNotMountedMountsItAndOpensItOnceMounted() {
        var state = volumesView()
        state.apply(.drives(.found([Self.drive], recentServers: [])))
        _ = state.apply(.key(.special(.end), .move(.bottom)))
        #expect(state.selectedDrive == Self.drive)
        #expect(state.apply(.navigation(.open)) == [.drives(.mount(Self.drive))])
        let effects = state.apply(.drives(.mounted(Self.drive, mountPoint: "/media/me/CARD")))
        #expect(state.folder == "/media/me/CARD" && state.overlay == nil && effects.contains { if case .list = $0 { true } else { false } })
        #expect(state.message == "CARD mounted at /media/me/CARD")
    }

    @Test func ejectNamesTheBrowsersOwnWorkOnTheVolume() {
        var state = volumesView()
        for (id, kind, folder) in [(1, JobKind.file(.copy), "/media/me/STICK/photos"), (2, .thumbnails, "/home/me/pictures")] {
            var job = JobStatus(id: id, kind: kind, folder: folder)
            job.total = 3
            state.apply(.jobChanged(job))
        }
        #expect(state.volumeCursor == 0)
        _ = state.apply(.key(.special(.down), .move(.down)))
        #expect(state.apply(.volumes(.eject)) == [.drives(.eject(Self.stick, ownHolds: ["a copy of 3 items into photos"]))])
    }

    @Test func aWrongPasswordIsAskedAgainUpToThreeTimesThenSaid() {
        var state = volumesView()
        state.apply(.volumes(.connect))
        #expect(state.prompt?.purpose == .connect)
        for character in "smb://ann@nas/photos" { state.apply(.prompt(.input(String(character)))) }
        #expect(state.apply(.prompt(.accept)) == [.drives(.connect(url: "smb://ann@nas/photos", password: nil))])
        let url = "smb://ann@nas/photos"
        state.apply(.drives(.failed(MountFailure(.needsPassword, "nas wants a user name and password for photos"), url: url)))
        for attempt in 1...3 {
            #expect(state.prompt?.purpose == .password(url), "prompt \(attempt)")
            state.apply(.prompt(.input("bad")))
            #expect(state.apply(.prompt(.accept)) == [.drives(.connect(url: url, password: "bad"))])
            state.apply(.drives(.failed(MountFailure(.wrongPassword, "nas refused the user name or password for photos"), url: url)))
        }
        #expect(state.prompt == nil && state.message == "nas refused the user name or password for photos")
    }

    @Test func escGivesUpAConnectionAndItsLateAnswerIsIgnored() {
        var state = volumesView()
        state.apply(.volumes(.connect))
        state.apply(.prompt(.input("sftp://host/x")))
        state.apply(.prompt(.accept))
        #expect(state.apply(.key(.escape, nil)) == [.drives(.cancel)])
        #expect(state.message == "connecting to sftp://host/x: cancelled")
        state.apply(.drives(.connected(url: "sftp://host/x", folder: "/run/user/1/qlbrowse/servers/x on host")))
        #expect(state.folder == "/home/me")
    }

    @Test func theAddressPromptOffersRecentServers() {
        var state = volumesView()
        state.apply(.drives(.found([], recentServers: ["smb://nas/a", "sftp://host/b"])))
        state.apply(.volumes(.connect))
        #expect(state.prompt?.text == "smb://nas/a")
        state.apply(.volumes(.recentServer(1)))
        #expect(state.prompt?.text == "sftp://host/b")
        state.apply(.volumes(.recentServer(1)))
        #expect(state.prompt?.text == "smb://nas/a")
    }

    @Test func theCursorStaysOnItsVolumeOrDriveWhileOtherMountsComeAndGo() {
        var state = volumesView()
        state.apply(.drives(.found([Self.drive], recentServers: [])))
        _ = state.apply(.key(.special(.end), .move(.bottom)))
        let other = Volume(mountPoint: "/mnt/other", fsType: "fuse.sshfs", source: "h:", device: "0:50", kind: .network, isReadOnly: false, label: "other")
        state.apply(.volumesChanged([.init(volume: Self.root), .init(volume: other), .init(volume: Self.stick)]))
        #expect(state.selectedDrive == Self.drive)
        let second = Drive(device: "/dev/sda9", fsType: "ext4", label: "A", uuid: "", size: 1, isRemovable: true)
        state.apply(.drives(.found([second, Self.drive], recentServers: [])))
        #expect(state.selectedDrive == Self.drive)
        _ = state.apply(.key(.special(.home), .move(.top)))
        _ = state.apply(.key(.special(.down), .move(.down)))
        state.apply(.volumesChanged([.init(volume: Self.root), .init(volume: Self.stick)]))
        #expect(state.volumeCursor == 1)  // "other" left: the cursor keeps its row (now the stick's)
        state.apply(.volumesChanged([.init(volume: other), .init(volume: Self.root), .init(volume: Self.stick)]))
        #expect(state.volumes[state.volumeCursor].volume == Self.stick)
    }
}
