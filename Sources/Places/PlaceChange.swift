/// A change in a watched folder (`Place.watch`).
public enum PlaceChange: Sendable, Equatable {
    /// Something happened to the entry named (its own bytes): made, removed, renamed, written.
    /// An empty name means "something, list again" (the place lost track).
    case changed(name: [UInt8])
    /// The folder itself is gone (removed, moved away, its volume or connection lost).
    case gone
}
