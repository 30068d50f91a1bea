import FileSystemKit

extension ScreenDemand {
    /// The few things of the state the demand reads, gathered in one place: when the state's
    /// shape changes, only this initialiser follows it.
    public struct Inputs: Sendable {
        public var showsQuickLook = false
        /// The file Quick Look shows (a Live Photo's movie while it moves).
        public var path: String?
        /// The entry under the cursor and its path.
        public var entry: Entry?
        public var selectedPath: String?
        public var content: QuickLookContent?
        /// What a custom previewer shows instead (text or a picture), when one does.
        public var custom: QuickLookContent?
        /// The first text line on screen (`QuickLookPosition.end`: the last ones).
        public var line = 0
        /// The length of what plays, when known.
        public var duration: Double?
        /// A Live Photo shows its movie.
        public var showsMotion = false
        /// Quick Look's text rows and the screen's columns.
        public var rows = 1
        public var columns = 80
        public var volumes: [VolumeMonitor.Status] = []

        public init() {}

        public init(_ state: BrowserState) {
            showsQuickLook = state.overlay == .quickLook
            path = state.quickLookPath
            entry = state.selected
            selectedPath = state.selectedPath
            content = state.quickLookContent
            custom = state.quickLook.custom
            line = state.quickLook.line
            duration = state.quickLook.duration
            showsMotion = state.quickLook.showsMotion
            rows = state.quickLookRows
            columns = state.layout.columns
            volumes = state.volumes
        }
    }
}
