/// Which packets a trim keeps, decided one packet at a time in the order they are stored: from
/// the first video keyframe at or before the start (or, without video, the first packet at the
/// start) to the end, every time then moved back so that the result starts at zero.
struct PacketSpan {
    let window: (start: Double, end: Double)?
    /// Where the kept part starts and ends in the source, once packets are kept.
    private(set) var firstKept: Double?
    private(set) var lastKept: Double?

    /// Packets are read this far past the end (in storage order, B-frames shown before the end
    /// can come after a frame shown after it).
    static let readPastEnd = 2.0

    enum Decision: Equatable {
        case skip
        case stop
        /// Kept, its times moved back by this many seconds.
        case keep(shift: Double)
    }

    init(window: (start: Double, end: Double)?) {
        self.window = window
    }

    mutating func decide(seconds: Double, isVideo: Bool, isKey: Bool, hasVideo: Bool) -> Decision {
        guard let window else { return keep(seconds) }
        if seconds >= window.end + Self.readPastEnd { return .stop }
        if seconds >= window.end { return .skip }
        guard let first = firstKept else {
            // The start: a video keyframe (at or before the start: the seek went back to one), or
            // without video, the first packet at the start.
            if hasVideo ? (isVideo && isKey) : seconds >= window.start - 0.001 {
                firstKept = seconds
                return keep(seconds)
            }
            return .skip
        }
        return seconds < first ? .skip : keep(seconds)
    }

    private mutating func keep(_ seconds: Double) -> Decision {
        lastKept = max(lastKept ?? seconds, seconds)
        if firstKept == nil { firstKept = seconds }
        return .keep(shift: window == nil ? 0 : firstKept ?? 0)
    }
}
