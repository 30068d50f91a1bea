@testable import FileSystemKit
import SystemKit
import Testing

/// The volume a short call's path is on, found from mountinfo alone (`MountTable.mountPoint(containing:in:)`,
/// what `LocalPlace` uses when no volumes are given): the deepest mount above the path, compared
/// as bytes, with the mount points the volumes view would show and no sysfs reads.
@Suite struct MountPointLookupTests {
    /// A mount table with nested mounts, an escaped space, a name that is not UTF-8 (the kernel
    /// escapes only space, tab, newline and backslash), pseudo filesystems, and two mounts on one point.
    static let mountinfo: [UInt8] = Array("""
        22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw
        23 22 0:21 / /proc rw,nosuid shared:5 - proc proc rw
        30 22 259:3 / /home rw,relatime shared:2 - ext4 /dev/nvme0n1p3 rw
        31 30 0:50 / /home/me/share rw,relatime shared:31 - cifs //nas/photos rw,vers=3.0
        32 31 0:51 / /home/me/share/inner rw - fuse.sshfs me@host:/srv rw
        40 22 8:17 / /media/me/USB\\040STICK rw,nosuid,nodev shared:30 - vfat /dev/sdb1 rw
        50 22 0:60 / /mnt/stacked rw - fuse.portal portal rw
        51 22 0:61 / /mnt/stacked rw - ext4 /dev/sdc1 rw
        60 22 0:70 / /mnt/hidden-then rw - ext4 /dev/sdd1 rw
        61 22 0:71 / /mnt/hidden-then rw - fuse.portal portal rw

        """.utf8) + Array("41 22 8:33 / /mnt/caf".utf8) + [0xE9] + Array(" rw - ext4 /dev/sde1 rw\ngarbage\n".utf8)

    static let latin1Cafe = String(fileSystemBytes: Array("/mnt/caf".utf8) + [0xE9])

    private func volume(of path: String) -> String {
        MountTable.mountPoint(containing: path, in: MountTable.mountPoints(in: Self.mountinfo))
    }

    @Test func theDeepestMountAboveThePathIsItsVolume() {
        #expect(volume(of: "/home/me/share/inner/2024/a.jpg") == "/home/me/share/inner")
        #expect(volume(of: "/home/me/share/b.jpg") == "/home/me/share")
        #expect(volume(of: "/home/me/share") == "/home/me/share")
        #expect(volume(of: "/home/me/shared/c.jpg") == "/home", "a longer name is not a folder below the mount point")
        #expect(volume(of: "/home") == "/home")
    }

    @Test func aPathOnTheRootOrUnderAPseudoFilesystemIsOnTheRoot() {
        #expect(volume(of: "/etc/passwd") == "/")
        #expect(volume(of: "/") == "/")
        #expect(volume(of: "/proc/self/mountinfo") == "/", "proc is not a volume, as in the volumes view")
        #expect(MountTable.mountPoint(containing: "/anything", in: []) == "/")
    }

    @Test func escapedAndNonUTF8MountPointsMatchTheirPathsByteForByte() {
        #expect(volume(of: "/media/me/USB STICK/DCIM/1.jpg") == "/media/me/USB STICK")
        #expect(volume(of: "/media/me/USB\\040STICK/x") == "/", "the escape is mountinfo's, not the name's")
        #expect(volume(of: Self.latin1Cafe + "/x.jpg") == Self.latin1Cafe)
        #expect(volume(of: Self.latin1Cafe) == Self.latin1Cafe)
        // The same letter in UTF-8 (C3 A9) is another name: not on that mount.
        #expect(volume(of: "/mnt/caf\u{E9}/x.jpg") == "/")
    }

    @Test func theLaterOfTwoMountsOnOnePointDecides() {
        #expect(volume(of: "/mnt/stacked/a") == "/mnt/stacked", "an ext4 disk mounted over a portal")
        #expect(volume(of: "/mnt/hidden-then/a") == "/", "a portal mounted over a disk hides it")
        // The same points as the volumes view, which also asks sysfs which drives are removable.
        #expect(Set(MountTable.mountPoints(in: Self.mountinfo)) == Set(["/", "/home", "/home/me/share", "/home/me/share/inner",
                                                                     "/media/me/USB STICK", "/mnt/stacked", Self.latin1Cafe]))
    }

    /// Past `linearLimit` lines the repeated points are found through a set: the same points, in
    /// the same order, as the linear search gives.
    @Test func aBigTableReadsLikeASmallOne() {
        let padding = (0..<80).flatMap { Array("\(100 + $0) 22 0:\(100 + $0) / /srv/disk\($0 % 40) rw - ext4 /dev/x\($0) rw\n".utf8) }
        let big = Self.mountinfo + padding
        #expect(big.split(separator: UInt8(ascii: "\n")).count > MountTable.linearLimit)
        let points = MountTable.mountPoints(in: big)
        #expect(points.count == 7 + 40, "40 points mounted twice each, counted once")
        // Read from the end: the later mount of each point first.
        #expect(Array(points.prefix(40)) == (0..<40).reversed().map { "/srv/disk\($0)" })
        #expect(Array(points.dropFirst(40)) == MountTable.mountPoints(in: Self.mountinfo), "the small table read linearly")
    }
}
