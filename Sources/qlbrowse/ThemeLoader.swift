import ArgumentParser
import BrowserUI
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Finds a theme by name: the user's config folder first, then the themes installed beside the
/// program (or the source tree's `Themes/` when run from a build), then the built-in default.
enum ThemeLoader {
    static func searchFolders() -> [String] {
        var folders = [UserConfig.folder + "/themes", UserConfig.folder]
        if let executable = OwnExecutable.folder {
            folders += [executable + "/../share/qlbrowse/themes", executable + "/../../Themes", executable + "/../../../Themes"]
        }
        folders += ["/usr/local/share/qlbrowse/themes", "/usr/share/qlbrowse/themes"]
        return folders
    }

    static func load(_ name: String) throws -> Theme {
        let candidates = name.contains("/") ? [name] : searchFolders().map { "\($0)/\(name).theme" }
        for path in candidates {
            guard let text = TextFile.read(path) else { continue }
            let (theme, problems) = Theme.parse(text)
            for problem in problems { StandardStream.write("qlbrowse: \(TerminalText.escaped(path)): \(problem)\n", to: 2) }
            return theme
        }
        if name == "default" { return Theme.builtIn }
        throw RuntimeError("no theme named \(TerminalText.escaped(name)); looked in \(searchFolders().joined(separator: ", "))")
    }

}
