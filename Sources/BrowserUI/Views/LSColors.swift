/// `LS_COLORS` (as `dircolors` writes it) turned into styles for file names: `di=01;34:*.jpg=01;35:…`.
public struct LSColors: Sendable, Equatable {
    public private(set) var byKey: [String: Theme.Style] = [:]
    public private(set) var byExtension: [String: Theme.Style] = [:]

    public init(_ value: String?) {
        guard let value else { return }
        for item in value.split(separator: ":") {
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let style = Self.style(fromSGR: pair[1]) else { continue }
            if pair[0].hasPrefix("*.") {
                byExtension[String(pair[0].dropFirst(2)).lowercased()] = style
            } else {
                byKey[pair[0]] = style
            }
        }
    }

    public var isEmpty: Bool { byKey.isEmpty && byExtension.isEmpty }

    /// The style for a name: its extension first, then its kind (`di` folders, `ln` links, `fi` files).
    public func style(name: String, isDirectory: Bool, isSymbolicLink: Bool) -> Theme.Style? {
        if isSymbolicLink, let style = byKey["ln"] { return style }
        if isDirectory { return byKey["di"] }
        if let dot = name.lastIndex(of: "."), let style = byExtension[name[name.index(after: dot)...].lowercased()] { return style }
        return byKey["fi"]
    }

    /// SGR parameters (`01;38;5;208`) as a style; nil when they set nothing we draw.
    static func style(fromSGR sgr: String) -> Theme.Style? {
        var style = Theme.Style()
        var codes = sgr.split(separator: ";").compactMap { Int($0) }[...]
        var any = false
        while let code = codes.popFirst() {
            switch code {
            case 0: break
            case 1: style.bold = true; any = true
            case 4: style.underline = true; any = true
            case 7: style.reverse = true; any = true
            case 30...37: style.foreground = Int32(code - 30); any = true
            case 90...97: style.foreground = Int32(code - 90 + 8); any = true
            case 40...47: style.background = Int32(code - 40); any = true
            case 100...107: style.background = Int32(code - 100 + 8); any = true
            case 38, 48:
                if codes.first == 5, codes.count >= 2 {
                    codes.removeFirst()
                    let color = Int32(codes.removeFirst())
                    if code == 38 { style.foreground = color } else { style.background = color }
                    any = true
                }
            default: break
            }
        }
        return any ? style : nil
    }
}
