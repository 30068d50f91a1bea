import SystemKit

extension BrowseCommand {
    /// The browser's arguments read without the full parser (`qlbrowse`, `qlbrowse FOLDER`), or
    /// nil where only the full parser can read them.
    static func quick(_ arguments: [String]) -> BrowseCommand? {
        let options: [QuickArguments.Option] = [.value("graphics"), .value("theme"), .value("choosedir"), .flag("volumes"), .flag("no-service")]
        guard let given = QuickArguments(arguments, options: options), given.operands.count <= 1 else { return nil }
        var command = BrowseCommand()
        command.path = given.operands.first
        command.graphics = given.value("graphics")
        command.theme = given.value("theme")
        command.choosedir = given.value("choosedir")
        command.volumes = given.has("volumes")
        command.noService = given.has("no-service")
        return command
    }
}
