import FileSystemKit
import Places
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The volumes a `thumbnail -r` run walks, noted at the start, so that read errors can be told
/// apart: one bad file (count it, go on) or its volume gone (stop, say what was not done), as the
/// browser's jobs do.
struct VolumeWatch: Sendable {
    private struct Watched: Sendable {
        let root: String
        let volume: Volume
    }

    private let watched: [Watched]

    /// Notes the volume of each root; the root file system is never "gone".
    init(roots: [String]) {
        let volumes = VolumeMonitor.currentVolumes()
        watched = roots.compactMap { root in
            let absolute = PathNormalizer.absolute(root)
            guard let volume = Volume.containing(absolute, in: volumes), volume.mountPoint != "/" else { return nil }
            return Watched(root: absolute, volume: volume)
        }
    }

    /// Why a walked volume cannot be reached any more ("photos was disconnected": unmounted, or
    /// calls fail with ENOTCONN, EIO, ESTALE, ENODEV; "photos is not responding": a listing hangs),
    /// or nil when every one still answers.
    func goneReason() async -> String? {
        let mounted = VolumeMonitor.currentVolumes()
        for entry in watched {
            guard mounted.contains(where: { $0.mountPoint == entry.volume.mountPoint && $0.device == entry.volume.device }) else {
                return "\(entry.volume.label) was disconnected"
            }
            if let reason = await Self.listingFails(entry) { return reason }
        }
        return nil
    }

    /// A listing, not a stat (smbnetfs answers a stat from its cache after the server is gone),
    /// on a thread of its own with a deadline (a dead share may never answer).
    private static func listingFails(_ entry: Watched) async -> String? {
        switch await LocalPlace(volumes: { [entry.volume] }).probe(entry.root) {
        case let failure? where failure.code == .notResponding: return "\(entry.volume.label) is not responding"
        case let failure? where [ENOTCONN, EIO, ESTALE, ENODEV, ECONNABORTED, EHOSTDOWN, ENXIO].contains(failure.errno):
            return "\(entry.volume.label) was disconnected"
        case nil, .some: return nil
        }
    }
}
