import BrowserCore
import SystemKit

/// Carries out the screen's demand (`ScreenDemand`, decided by the state): keeps what is in
/// flight equal to it through a `Reconciler`, starts each missing need as an on-screen task of
/// the scheduler and cancels those no longer wanted. It decides nothing: what is needed comes
/// from BrowserCore, what is met from the store of what came back.
final class DemandRunner {
    typealias Need = ScreenDemand.Need
    private var reconciler = Reconciler<Need>(askedOnce: { $0.isAskedOnce })
    /// The scheduler's task of each need in flight.
    private var running: [Need.ID: Int] = [:]
    private let tasks: BackgroundTasks
    private let pictures: PictureService
    private let inbox: Inbox
    /// The scheduler's group of these.
    static let group = "quicklook"

    init(tasks: BackgroundTasks, pictures: PictureService, inbox: Inbox) {
        self.tasks = tasks
        self.pictures = pictures
        self.inbox = inbox
    }

    /// What is in flight now, for tests and tracing.
    var inFlight: Set<Need.ID> { reconciler.inFlight }

    /// Starts what `demand` needs and `store` does not hold, cancels what it no longer needs.
    func reconcile(_ demand: ScreenDemand, store: PictureStore) {
        let plan = reconciler.reconcile(demand.needs) { Self.isMet($0, by: store) }
        for id in plan.cancel {
            if let task = running.removeValue(forKey: id) { tasks.cancel(task, group: Self.group) }
        }
        for need in plan.start { running[need.id] = start(need, volume: demand.volume(of: need.path)) }
    }

    /// Task `task`'s answer to `need` is in (an answer of a task cancelled meanwhile is not the one awaited).
    func answered(_ need: Need, task: Int) {
        guard running[need.id] == task else { return }
        running[need.id] = nil
        reconciler.finished(need)
    }

    /// The file changed under its name: what was answered about the files shown is asked again.
    func forgetAnswers() {
        reconciler.forgetAnswers { _ in true }
    }

    /// Whether what came back already covers `need`.
    static func isMet(_ need: Need, by store: PictureStore) -> Bool {
        switch need {
        case .text(let path, _, _, _, let shown, _): shown.map { store.text(for: path)?.covers($0) == true } ?? false
        case .previewerText(let path, _, _): store.text(for: path) != nil
        case .members(let path): store.members(for: path) != nil
        case .previewer, .mediaFacts: false
        }
    }

    private func start(_ need: Need, volume: String) -> Int {
        let pictures = self.pictures, inbox = self.inbox
        return tasks.submit(group: Self.group, volume: volume, priority: .onScreen) { context in
            switch need {
            case .previewer(let path, let hasBuiltIn): await pictures.customPreviewer(path, hasBuiltIn: hasBuiltIn)
            case .previewerText(let path, let columns, let rows): await pictures.customText(path, columns: columns, rows: rows)
            case .members(let path): await pictures.listMembers(path)
            case .mediaFacts(let path): await pictures.mediaFacts(path)
            case .text(let path, let first, let count, let rows, _, _):
                await pictures.readText(path, from: first, count: count, rows: rows)
            }
            inbox.post(.needAnswered(need, task: context.id))
        }
    }
}
