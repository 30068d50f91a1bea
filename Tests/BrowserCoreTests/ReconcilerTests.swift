@testable import BrowserCore
import Testing

/// The reconciler: what is wanted and neither in flight, answered nor met starts; what is in
/// flight and no longer wanted is cancelled; answers are forgotten when their need goes.
@Suite struct ReconcilerTests {
    typealias Need = ScreenDemand.Need
    private let members = Need.members(path: "/a.zip")
    private let previewer = Need.previewer(path: "/a.zip", hasBuiltIn: true)
    private func text(_ first: Int) -> Need {
        .text(path: "/b.txt", first: first, count: 40, rows: 10, shown: first..<(first + 10), volume: "/")
    }

    @Test func whatIsMissingStartsOnceInTheOrderWanted() {
        var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
        let plan = reconciler.reconcile([previewer, members]) { _ in false }
        #expect(plan.start == [previewer, members] && plan.cancel.isEmpty)
        // In flight: not asked again.
        #expect(reconciler.reconcile([previewer, members]) { _ in false }.start.isEmpty)
    }

    @Test func whatIsMetIsNotAsked() {
        var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
        #expect(reconciler.reconcile([members]) { $0 == members }.start.isEmpty)
    }

    @Test func whatIsNoLongerWantedIsCancelled() {
        var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
        _ = reconciler.reconcile([previewer, members]) { _ in false }
        let plan = reconciler.reconcile([previewer]) { _ in false }
        #expect(plan.cancel == [members.id] && plan.start.isEmpty)
        #expect(reconciler.inFlight == [previewer.id])
    }

    @Test func anAnswerSettlesANeedAskedOnceUntilItGoes() {
        var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
        _ = reconciler.reconcile([previewer]) { _ in false }
        reconciler.finished(previewer)
        // No previewer was found: nothing in the state shows it, and it is not asked again...
        #expect(reconciler.reconcile([previewer]) { _ in false }.start.isEmpty)
        // ...until the file is left and shown again.
        _ = reconciler.reconcile([]) { _ in false }
        #expect(reconciler.reconcile([previewer]) { _ in false }.start == [previewer])
    }

    @Test func textIsOneReadAtATimeAndAskedAgainWhenTheScreenMovedOn() {
        var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
        #expect(reconciler.reconcile([text(0)]) { _ in false }.start == [text(0)])
        // Scrolled while the first window is read: the same file is not read twice at once.
        #expect(reconciler.reconcile([text(30)]) { _ in false }.start.isEmpty)
        reconciler.finished(text(0))
        // The window read does not cover the lines now shown: the next one is asked.
        #expect(reconciler.reconcile([text(30)]) { _ in false }.start == [text(30)])
        reconciler.finished(text(30))
        #expect(reconciler.reconcile([text(30)]) { _ in true }.start.isEmpty)
    }

    @Test func forgottenAnswersAreAskedAgain() {
        var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
        _ = reconciler.reconcile([previewer]) { _ in false }
        reconciler.finished(previewer)
        reconciler.forgetAnswers { $0.path == "/a.zip" }
        #expect(reconciler.reconcile([previewer]) { _ in false }.start == [previewer])
    }

    @Test func anAnswerForANeedNoLongerInFlightChangesNothing() {
        var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
        _ = reconciler.reconcile([members]) { _ in false }
        _ = reconciler.reconcile([]) { _ in false }
        reconciler.finished(members)
        #expect(reconciler.answered.isEmpty)
        #expect(reconciler.reconcile([members]) { _ in false }.start == [members])
    }
}
