import Testing
@testable import BrowserCore
import FileSystemKit

/// The volumes feature's reducer: the volumes view.
@Suite struct VolumesActionTests {
    @Test func theVolumesViewOpensOnTheCurrentVolumeAndParentClosesIt() {
        var state = BrowserState.browsing(["a"])
        let root = Volume(mountPoint: "/", fsType: "ext4", source: "/dev/sda1", device: "8:1", kind: .local, isReadOnly: false, label: "root")
        let home = Volume(mountPoint: "/home", fsType: "ext4", source: "/dev/sda2", device: "8:2", kind: .local, isReadOnly: false, label: "home")
        state.apply(.volumesChanged([.init(volume: root), .init(volume: home)]))
        state.apply(.volumes(.toggle))
        #expect(state.overlay == .volumes && state.volumeCursor == 1)
        state.apply(.navigation(.parent))
        #expect(state.overlay == nil)
    }
}
