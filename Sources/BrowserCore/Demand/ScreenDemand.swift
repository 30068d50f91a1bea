import FileSystemKit
import ThumbnailKit

/// What the screen needs from background work besides its pictures' decoding, said by the
/// state alone: whether a custom previewer takes the file Quick Look shows, its text lines, an
/// archive's members, a song's or an animation's length; and which volumes are asked nothing
/// (the rule the pictures follow too). The shell diffs it against what is in flight
/// (`Reconciler`), starts what is missing and cancels the rest; it never decides what to ask.
public struct ScreenDemand: Equatable, Sendable {
    /// One thing to fetch. Its `id` (kind and path) is what is in flight: a text file is read
    /// one window at a time, whatever lines the latest wish names.
    public enum Need: Hashable, Sendable, Identifiable {
        /// Whether a custom previewer shows this file (`hasBuiltIn`: Quick Look has a view of its own).
        case previewer(path: String, hasBuiltIn: Bool)
        /// A custom previewer's text, whole, for a screen `columns` wide and `rows` high.
        case previewerText(path: String, columns: Int, rows: Int)
        /// An archive's members.
        case members(path: String)
        /// A song's, video's or animation's length (an animation is one when it has one).
        case mediaFacts(path: String)
        /// Lines of a text file: `count` from `first`, for a screen `rows` high; `shown` are the
        /// lines on screen (nil: the last ones, not known yet), read on `volume`'s queue.
        case text(path: String, first: Int, count: Int, rows: Int, shown: Range<Int>?, volume: String)

        public enum Kind: Hashable, Sendable { case previewer, previewerText, members, mediaFacts, text }

        /// What is in flight, and what is answered.
        public struct ID: Hashable, Sendable {
            public let kind: Kind
            public let path: String
        }

        public var id: ID {
            switch self {
            case .previewer(let path, _): ID(kind: .previewer, path: path)
            case .previewerText(let path, _, _): ID(kind: .previewerText, path: path)
            case .members(let path): ID(kind: .members, path: path)
            case .mediaFacts(let path): ID(kind: .mediaFacts, path: path)
            case .text(let path, _, _, _, _, _): ID(kind: .text, path: path)
            }
        }

        public var path: String { id.path }

        /// Asked once while wanted (the answer may change nothing the state shows: no previewer,
        /// no length). Text lines are asked again whenever the screen shows lines not read.
        public var isAskedOnce: Bool { id.kind != .text }
    }

    /// In the order they matter: what decides how the file is shown first.
    public var needs: [Need] = []
    /// Mount points asked nothing: removable and network volumes that stopped answering (a slow
    /// local disk is load, not a dead mount, and is always asked).
    public var silentVolumes: Set<String> = []
    /// The volumes as the state knows them, to tell which a path is on.
    public var volumes: [Volume] = []

    public init() {}

    /// Whether work for `path` may be asked of its volume: not when that volume is silent.
    public func mayAsk(about path: String) -> Bool {
        guard !silentVolumes.isEmpty else { return true }
        return Volume.containing(path, in: volumes).map { !silentVolumes.contains($0.mountPoint) } ?? true
    }

    /// The mount point of the volume `path` is on ("/" when none is known): the queue its work waits in.
    public func volume(of path: String) -> String {
        Volume.containing(path, in: volumes)?.mountPoint ?? "/"
    }

    /// What the screen of `state` needs.
    public static func of(_ state: BrowserState) -> ScreenDemand { of(Inputs(state)) }

    /// What the screen described by `inputs` needs.
    public static func of(_ inputs: Inputs) -> ScreenDemand {
        var demand = ScreenDemand()
        demand.volumes = inputs.volumes.map(\.volume)
        demand.silentVolumes = Set(inputs.volumes.filter { !$0.isResponding && $0.volume.kind != .local }.map(\.volume.mountPoint))
        guard inputs.showsQuickLook, let path = inputs.path, let content = inputs.content, let entry = inputs.entry else { return demand }
        if !entry.isDirectory { demand.needs.append(.previewer(path: path, hasBuiltIn: entry.kind != .unknown)) }
        switch content {
        case .text where inputs.custom == .text:
            if let shown = inputs.selectedPath {
                demand.needs.append(.previewerText(path: shown, columns: inputs.columns - 6, rows: inputs.rows))
            }
        case .text:
            guard let shown = inputs.selectedPath else { break }
            let line = inputs.line, rows = inputs.rows
            let toEnd = line >= QuickLookPosition.end
            demand.needs.append(.text(path: shown, first: toEnd ? line : max(0, line - rows), count: rows * 4, rows: rows,
                                      shown: toEnd ? nil : line..<(line + rows),
                                      volume: demand.volume(of: shown)))
        case .members:
            demand.needs.append(.members(path: path))
        case .timeline where entry.kind != .video && !inputs.showsMotion:
            if inputs.duration == nil { demand.needs.append(.mediaFacts(path: path)) }
        case .picture where entry.kind == .image && (QuickLookContent.mayAnimate(entry.name) || FileFact.mayBeMotionPhoto(entry.name)):
            // Whether this PNG or WebP moves: a length comes back only for an animation.
            demand.needs.append(.mediaFacts(path: path))
        default: break
        }
        return demand
    }
}
