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
        public var position = QuickLookPosition()
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
            position = state.quickLook
            rows = state.quickLookRows
            columns = state.layout.columns
            volumes = state.volumes
        }
    }
}
