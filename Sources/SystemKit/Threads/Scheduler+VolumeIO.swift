extension Scheduler {
    /// A blocking call as a task: queued and listed like any other, then run on `volume`'s
    /// thread by `io` under its deadline (`VolumeIO.run`); `completion` hears the outcome, and
    /// the task ends with it. Cancelling a call under way stops waiting for nothing: the call is
    /// one system call or a few, and its answer still comes.
    @discardableResult
    public func io<Value: Sendable>(group: String, volume: String, priority: Priority = .user, deadline: Double,
                                    through io: VolumeIO = .shared, _ work: @escaping @Sendable (VolumeIO.Heartbeat) -> Value,
                                    completion: @escaping @Sendable (VolumeIO.Outcome<Value>) -> Void) -> Int {
        submit(group: group, volume: volume, priority: priority) { _ in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                io.run(volume: volume, deadline: deadline, work, completion: { outcome in
                    completion(outcome)
                    done.resume()
                })
            }
        }
    }

    /// `io(group:volume:priority:deadline:through:_:completion:)` for a call without a heartbeat.
    @discardableResult
    public func io<Value: Sendable>(group: String, volume: String, priority: Priority = .user, deadline: Double,
                                    through io: VolumeIO = .shared, _ work: @escaping @Sendable () -> Value,
                                    completion: @escaping @Sendable (VolumeIO.Outcome<Value>) -> Void) -> Int {
        self.io(group: group, volume: volume, priority: priority, deadline: deadline, through: io, { _ in work() }, completion: completion)
    }
}
