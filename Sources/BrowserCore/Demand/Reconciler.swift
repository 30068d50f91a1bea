/// Keeps what is in flight equal to what is wanted: given the demand, it says what to start and
/// what to cancel. A need asked once (`isAskedOnce`) is remembered as answered while it stays
/// wanted, and forgotten when it leaves the demand (a file shown again is asked again); other
/// needs are asked again whenever `isMet` says the answer does not cover them. Pure: the shell
/// carries out the plan and tells it when an answer is in.
public struct Reconciler<Need: Identifiable & Sendable>: Sendable where Need.ID: Sendable {
    /// What the shell is to do now.
    public struct Plan: Sendable {
        public var start: [Need] = []
        public var cancel: [Need.ID] = []
    }

    /// What was asked and is not answered yet.
    public private(set) var inFlight: Set<Need.ID> = []
    /// What was answered and stays wanted: not asked again.
    public private(set) var answered: Set<Need.ID> = []
    private let askedOnce: @Sendable (Need) -> Bool

    /// `askedOnce(need)`: whether an answer settles the need for as long as it is wanted.
    public init(askedOnce: @escaping @Sendable (Need) -> Bool) {
        self.askedOnce = askedOnce
    }

    /// Compares `wanted` with what is in flight and answered: starts (in the order wanted) what
    /// is neither nor met already, cancels what is in flight and no longer wanted, forgets the
    /// answers no longer wanted.
    public mutating func reconcile(_ wanted: [Need], isMet: (Need) -> Bool) -> Plan {
        var plan = Plan()
        let ids = Set(wanted.map(\.id))
        for id in inFlight where !ids.contains(id) {
            plan.cancel.append(id)
            inFlight.remove(id)
        }
        answered.formIntersection(ids)
        for need in wanted where !inFlight.contains(need.id) && !answered.contains(need.id) && !isMet(need) {
            inFlight.insert(need.id)
            plan.start.append(need)
        }
        return plan
    }

    /// The answer to `need` is in (or it failed: it is not asked again while wanted, unless it
    /// is a need asked whenever unmet).
    public mutating func finished(_ need: Need) {
        guard inFlight.remove(need.id) != nil else { return }
        if askedOnce(need) { answered.insert(need.id) }
    }

    /// Forgets the answers about `path`'s needs (the file changed): they are asked again.
    public mutating func forgetAnswers(where matches: (Need.ID) -> Bool) {
        answered = answered.filter { !matches($0) }
    }
}
