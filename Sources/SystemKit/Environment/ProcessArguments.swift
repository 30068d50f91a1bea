/// The program's arguments as the kernel gave them, each kept byte for byte (`FileSystemBytes`):
/// `CommandLine.arguments` repairs bytes that are not UTF-8 to U+FFFD, so `qlbrowse files trash
/// $'a\xFF.txt'` would name `a\u{FFFD}.txt`, another file.
public enum ProcessArguments {
    /// Every argument, the program's name first.
    public static var all: [String] {
        (0..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { String(fileSystemRepresentation: $0) } ?? ""
        }
    }
}
