import FileSystemKit
import SystemKit
import Testing
@testable import BrowserUI

/// What a finished operation writes in the journal when its files are on two places: a move
/// between places (a copy, then the source in its own place's trash) is undone by the source
/// coming back from that trash and the copy going to its place's trash; a source the move kept
/// (its trash failed) writes nothing for that item; a move within one place stays a rename.
@Suite struct UndoStepsTests {
    let stamp = PathStamp.of("/")!

    @Test func aMoveBetweenPlacesIsUndoneFromTheSourcesTrash() {
        var report = FileOperation.Report()
        report.done = ["ssh://nas/photos/a.jpg"]
        report.placed = [FileOperation.Placement(source: "ssh://nas/photos/a.jpg", target: "/home/me/a.jpg", sameVolume: false),
                         FileOperation.Placement(source: "ssh://nas/photos/kept.jpg", target: "/home/me/kept.jpg", sameVolume: false)]
        let trashed = TrashCan.Item(originalPath: "ssh://nas/photos/a.jpg", trashedPath: "ssh://nas/home/me/.local/share/Trash/files/a.jpg",
                                    infoPath: "ssh://nas/home/me/.local/share/Trash/info/a.jpg.trashinfo")
        report.trashed = [trashed]
        let step = UndoSteps.of(.move, report: report, destination: "/home/me", stamp: { _ in stamp })
        #expect(step.actions == [.restore(trashed), .discard("/home/me/a.jpg", expected: stamp)])
        #expect(step.title == "the move of a.jpg to me")
    }

    @Test func aMoveWithinOneRemoteIsARename() {
        var report = FileOperation.Report()
        report.done = ["ssh://nas/a/x.txt"]
        report.placed = [FileOperation.Placement(source: "ssh://nas/a/x.txt", target: "ssh://nas/b/x.txt", sameVolume: true)]
        let step = UndoSteps.of(.move, report: report, destination: "ssh://nas/b", stamp: { _ in stamp })
        #expect(step.actions == [.rename(from: "ssh://nas/b/x.txt", to: "ssh://nas/a/x.txt", expected: stamp)])
    }
}
