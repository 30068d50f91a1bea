import SystemKit

extension PreviewCommand {
    /// `preview`'s arguments read without the full parser (lf, fzf and ranger call it for every
    /// file the cursor passes), or nil where only the full parser can read them.
    static func quick(_ arguments: [String]) -> PreviewCommand? {
        let options: [QuickArguments.Option] = [.value("size"), .value("place"), .value("graphics"), .flag("clear"), .flag("no-service")]
        guard let given = QuickArguments(arguments, options: options), given.operands.count <= 1 else { return nil }
        var command = PreviewCommand()
        command.file = given.operands.first
        command.size = given.value("size")
        command.place = given.value("place")
        command.graphics = given.value("graphics")
        command.clear = given.has("clear")
        command.noService = given.has("no-service")
        return command
    }
}
