@testable import FileSystemKit
import Foundation
import SystemKit
import Testing

/// Which paths a short call may use where it stands (`LocalDiskPath.cannotHang`): only those whose
/// every mount on the way is a local disk or memory, following links on local disks to their
/// targets, refusing what it cannot vouch for. Real files in a temporary folder; the mount
/// tables are made up around it, so "a share" is any folder the table says is one.
@Suite struct LocalDiskPathTests {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("qlbrowse-localdisk-\(UUID().uuidString)").path
        for folder in ["disk/photos", "share/photos", "other"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["disk/photos/a.jpg", "share/photos/b.jpg"] { FileManager.default.createFile(atPath: root + "/" + file, contents: Data()) }
        _ = symlink("a.jpg", root + "/disk/photos/alias.jpg")
        _ = symlink("../../share/photos/b.jpg", root + "/disk/photos/to-share.jpg")
        _ = symlink(root + "/disk/photos", root + "/other/album")
        _ = symlink(root, root + "/other/top")
        _ = symlink("loop2", root + "/other/loop1")
        _ = symlink("loop1", root + "/other/loop2")
    }

    /// A root of type `rootType`, and the share folder mounted as `shareType`.
    func mounts(root rootType: String = "ext4", share shareType: String = "cifs", shareSource: String = "//nas/photos") -> [MountTable.Brief] {
        [.init(mountPoint: "/", fsType: rootType, source: "/dev/sda1"), .init(mountPoint: "/proc", fsType: "proc", source: "proc"),
         .init(mountPoint: root + "/share", fsType: shareType, source: shareSource)]
    }

    @Test func filesOnLocalDisksAndLinksToThemAreVouchedFor() {
        for path in ["disk/photos/a.jpg", "disk/photos/alias.jpg", "other/album/a.jpg", "disk/./photos//a.jpg", "disk/photos"] {
            #expect(LocalDiskPath.cannotHang(root + "/" + path, mounts: mounts()), "\(path)")
        }
        #expect(LocalDiskPath.cannotHang(root + "/share/photos/b.jpg", mounts: mounts(share: "tmpfs", shareSource: "tmpfs")), "a mount of a local type")
    }

    @Test func sharesFuseAndLinksIntoThemAreNot() {
        for type in ["cifs", "nfs4", "fuse.sshfs", "fuse.faultfs", "fuse", "fuseblk", "autofs", "9p"] {
            #expect(!LocalDiskPath.cannotHang(root + "/share/photos/b.jpg", mounts: mounts(share: type)), "\(type)")
            #expect(!LocalDiskPath.cannotHang(root + "/disk/photos/to-share.jpg", mounts: mounts(share: type)), "a link into \(type)")
        }
        // A network root: nothing beneath it is vouched for.
        #expect(!LocalDiskPath.cannotHang(root + "/disk/photos/a.jpg", mounts: mounts(root: "nfs")))
        // A local type on a block device whose blocks may come over a network.
        for source in ["/dev/loop3", "/dev/nbd0", "/dev/rbd1"] {
            #expect(!LocalDiskPath.cannotHang(root + "/share/photos/b.jpg", mounts: mounts(share: "ext4", shareSource: source)), "\(source)")
        }
    }

    @Test func aFolderWhoseContentsAreReadMayHaveNoShareMountedInside() {
        #expect(LocalDiskPath.cannotHang(root, mounts: mounts()), "the folder itself is local")
        #expect(!LocalDiskPath.cannotHang(root, mounts: mounts(), beneath: true), "a share is mounted inside it")
        #expect(LocalDiskPath.cannotHang(root, mounts: mounts(share: "xfs", shareSource: "/dev/sdb1"), beneath: true))
        #expect(LocalDiskPath.cannotHang(root + "/disk", mounts: mounts(), beneath: true), "the share is beside it, not inside")
        // Through a link: what is inside is judged where the link leads.
        #expect(LocalDiskPath.cannotHang(root + "/other/album", mounts: mounts(), beneath: true))
        #expect(!LocalDiskPath.cannotHang(root + "/other/top", mounts: mounts(), beneath: true), "a link to the folder the share is in")
    }

    @Test func whatCannotBeVouchedForIsRefused() {
        #expect(!LocalDiskPath.cannotHang(root + "/disk/photos/../photos/a.jpg", mounts: mounts()), "a .. depends on links")
        #expect(!LocalDiskPath.cannotHang(root + "/disk/photos/missing.jpg", mounts: mounts()), "a component that is not there")
        #expect(!LocalDiskPath.cannotHang(root + "/other/loop1", mounts: mounts()), "a loop of links")
        #expect(!LocalDiskPath.cannotHang(root + "/disk/photos/a.jpg", mounts: []), "no mount table")
        #expect(!LocalDiskPath.cannotHang(root + "/disk/photos/a.jpg", mounts: [.init(mountPoint: root, fsType: "ext4")]), "a table without /")
        #expect(!LocalDiskPath.cannotHang("", mounts: mounts()))
    }

    /// Relative paths start at the working folder (not changed here: the tests share one process).
    @Test func relativePathsStartAtTheWorkingFolder() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(LocalDiskPath.absoluteBytes("photos/./a.jpg") == (cwd == "/" ? "" : cwd).fileSystemBytes + Array("/photos/a.jpg".utf8))
        #expect(LocalDiskPath.absoluteBytes("photos/../a.jpg") == nil)
        #expect(LocalDiskPath.absoluteBytes("/") == Array("/".utf8))
    }

    @Test func theMountTableIsReadAsPointsTypesAndSources() {
        let mounts = MountTable.briefs(in: MountPointLookupTests.mountinfo)
        #expect(mounts.count == 11)
        #expect(mounts.contains(MountTable.Brief(mountPoint: "/media/me/USB STICK", fsType: "vfat", source: "/dev/sdb1")))
        #expect(mounts.contains(MountTable.Brief(mountPoint: "/home/me/share", fsType: "cifs", source: "//nas/photos")))
        #expect(mounts.filter { $0.mountPoint == "/mnt/stacked" }.map(\.fsType) == ["fuse.portal", "ext4"], "both mounts on one point kept")
    }
}
