/// Background jobs: thumbnailing a folder (`T`), the jobs panel (`J`), cancelling and pausing.
public enum JobsAction: Sendable, Equatable {
    /// `T`: thumbnail the folder under the cursor (or the current one) in the background.
    case startBatch
    /// Thumbnail into the personal cache only (false) or also into `.sh_thumbnails` (true), after `T` asked.
    case confirmBatch(shared: Bool)
    /// `J`: the jobs panel on or off.
    case toggle
    /// Cancel the job under the jobs panel's cursor.
    case cancel
    /// The pause key in the jobs panel.
    case togglePause
}
