import TerminalGraphics
import ThumbnailKit

/// How the browser was asked to start.
public struct BrowserOptions: Sendable {
    public var folder: String
    public var graphics: GraphicsMode?
    public var theme: Theme
    /// The theme for a light terminal background, when no theme was named (`--theme`, `theme =`):
    /// used instead of `theme` when the terminal says its background is light (OSC 11).
    public var lightTheme: Theme?
    public var lsColors: LSColors
    public var useColor: Bool
    /// `--choosedir FILE`: the folder the user was in is written here on quit (cd on quit).
    public var chooseDirFile: String?
    /// Where workers' library chatter goes (never the screen).
    public var logFile: String?
    /// Which key does what (defaults plus config.toml's `[keys]`).
    public var keys: KeyMap
    /// The preview pane's share of the width, in percent.
    public var previewPercent: Int
    /// Open on the volumes view (`--volumes`).
    public var startInVolumes = false
    /// config.toml's `verify_copies`: read copies back and compare before putting them in place.
    public var verifiesCopies = false
    /// The ssh SFTP connections use (QLBROWSE_SSH_COMMAND, else `ssh_command` in config.toml).
    public var sshCommand: String?
    /// What the status line calls the remote the browser starts on ("ssh:nas" or "sftp:nas"),
    /// in its tabs (`PlaceRouter.label(for:)`; a remote connected later is labelled the same way,
    /// by `RemoteOpening`).
    public var placeLabel: String?
    /// The program run on a remote the connect prompt reaches (`remote_command`,
    /// `QLBROWSE_REMOTE_COMMAND`): `qlbrowse` when nil.
    public var remoteCommand: String?
    /// `--sftp`, `ssh_mode = "sftp"`, `QLBROWSE_SSH_MODE=sftp`: remotes the connect prompt
    /// reaches are browsed over plain SFTP even when they have qlbrowse.
    public var forcesSFTP = false
    public init(folder: String, graphics: GraphicsMode?, theme: Theme, lsColors: LSColors, useColor: Bool, chooseDirFile: String?, logFile: String?,
                keys: KeyMap = .standard, previewPercent: Int = 55) {
        self.folder = folder
        self.graphics = graphics
        self.theme = theme
        self.lsColors = lsColors
        self.useColor = useColor
        self.chooseDirFile = chooseDirFile
        self.logFile = logFile
        self.keys = keys
        self.previewPercent = previewPercent
    }
}
