/// The jobs feature's state: background jobs, oldest first, and the jobs panel's cursor.
public struct JobsState: Sendable, Equatable {
    public internal(set) var list: [JobStatus] = []
    public internal(set) var cursor = 0
}
