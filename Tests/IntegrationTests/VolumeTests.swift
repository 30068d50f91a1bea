import Foundation
import Testing

/// The browser on real FUSE mounts that hang, vanish, come and go (Tests/Support/faultfs.py),
/// driven in a pseudo-terminal and read from the rendered screen.
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/dev/fuse"), "needs FUSE (/dev/fuse)"))
struct VolumeTests {
    @Test func hungAndVanishingVolumesNeverFreezeTheBrowser() throws {
        let result = TestEnvironment.runScenario("hung-volume.py", folder: "qlbrowse-volumes")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        for check in ["volumes view shows a fresh FUSE mount", "drops it after unmount", "waiting for mnt", "Esc goes back",
                      "every key answered", "during a listing and during a preview", "banner and the view leaves it", "stopped with a report", "resumes and skips", "nothing partial in the cache",
                      "a local photo still gets its picture", "q quits cleanly"] {
            #expect(result.stdout.contains("PASS") && result.stdout.split(separator: "\n").contains { $0.hasPrefix("PASS") && $0.contains(check) },
                    "\(check): \(result.stdout)")
        }
    }

    @Test func aVolumeVanishingDuringThumbnailRecursiveIsReportedAsSuch() throws {
        let result = TestEnvironment.runScenario("batch-vanish.py", folder: "qlbrowse-batch-vanish")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 5, "\(result.stdout)")
    }

    /// A call the cache answers: on the calling thread when every path is on a local disk (no
    /// thread started, strace counts), the guarded way when a path is on FUSE or a link leads
    /// there, and a hung volume's file is refused within `--timeout` (it waited for ever before).
    @Test func aCachedCallStartsNoThreadOnLocalDisksAndEndsOnAHungVolume() throws {
        let result = TestEnvironment.runScenario("cached-call.py", folder: "qlbrowse-cached-call")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 10, "\(result.stdout)")
    }

    @Test func bookmarksLastAcrossRunsAndSayWhenTheirVolumeIsGoneOrHung() throws {
        let result = TestEnvironment.runScenario("bookmarks.py", folder: "qlbrowse-bookmarks")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 7, "\(result.stdout)")
    }

    @Test func anEditOnAVolumeThatVanishesLeavesTheOriginalWhole() throws {
        let result = TestEnvironment.runScenario("edit-vanish.py", folder: "qlbrowse-edit-vanish")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 6, "\(result.stdout)")
    }

    @Test(.enabled(if: ["/usr/sbin/smbd", "/usr/bin/smbnetfs"].allSatisfy { FileManager.default.fileExists(atPath: $0) }, "needs samba and smbnetfs"))
    func theSMBServerStoppedMidBatch() throws {
        let result = TestEnvironment.runScenario("smb-batch.py", folder: "qlbrowse-smb")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 6, "\(result.stdout)")
    }

    @Test(.enabled(if: ["/usr/sbin/smbd", "/usr/bin/smbnetfs", "/usr/bin/parallel"].allSatisfy { FileManager.default.fileExists(atPath: $0) },
                   "needs samba, smbnetfs and GNU parallel"))
    func fourShardsAtOnceFillOneSharedRepositoryThatASecondUserReadsWithoutDecoding() throws {
        _ = TestEnvironment.fixtures  // made when missing: the share is filled from them
        let result = TestEnvironment.runScenario("smb-shards.py", folder: "qlbrowse-smb-shards")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 7, "\(result.stdout)")
    }
}
