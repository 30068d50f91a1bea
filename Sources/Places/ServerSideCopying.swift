import SystemKit

/// A place that can copy one of its files to another of its own names without the bytes
/// crossing to this computer (OpenSSH's `copy-data` over SFTP): `PlaceTransfer` asks it first
/// when a copy's source and destination are that same place, and reads and writes through the
/// link only when it answers false (the server does not offer it).
protocol ServerSideCopying: Place {
    /// Makes `temporary` (never over a name) holding the `size` bytes of `path`, flushed; false
    /// when the place cannot, with nothing made.
    func copyOnServer(_ path: String, to temporary: String, size: Int) async throws(FileSystemError) -> Bool
}
