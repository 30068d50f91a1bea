/// A strict reading of the plain command lines that other programs repeat many times (a
/// previewer per file in lf or fzf, a thumbnail per call, `qlbrowse FOLDER`), so those calls skip
/// the full argument parser, whose reflection over every option is most of a short call's cost.
///
/// It reads only forms whose meaning is beyond doubt: `--name`, `--name value`, `--name=value`,
/// `-x value`, operands, and `--` before operands. Anything else — an unknown or repeated
/// option, `-h`, combined short flags (`-rf`), a value that starts with `-`, a lone `-` — makes
/// it give up (nil), and the full parser reads the line, with its usual help and errors.
public struct QuickArguments: Sendable, Equatable {
    /// An option the quick reading knows: its long name, an optional one-letter short name, and
    /// whether it takes a value (else it is a flag).
    public struct Option: Sendable, Equatable {
        public let long: String
        public let short: Character?
        public let takesValue: Bool

        public init(_ long: String, short: Character? = nil, takesValue: Bool) {
            self.long = long
            self.short = short
            self.takesValue = takesValue
        }

        /// A flag: `--long` (or `-s`), no value.
        public static func flag(_ long: String, short: Character? = nil) -> Option { Option(long, short: short, takesValue: false) }

        /// An option with a value: `--long value`, `--long=value` (or `-s value`).
        public static func value(_ long: String, short: Character? = nil) -> Option { Option(long, short: short, takesValue: true) }
    }

    /// An option's value as given.
    public struct Value: Sendable, Equatable {
        public let option: String
        public let value: String
    }

    /// The flags given, by long name. A list, not a set, and the values below a list, not a
    /// dictionary: a short call's first `Set<String>` or `[String: String]` had the runtime look
    /// its type up by name through every conformance of the program (6 % of a cached call).
    public private(set) var flags: [String] = []
    /// The options' values, in the order given.
    public private(set) var values: [Value] = []
    /// The operands, in order.
    public private(set) var operands: [String] = []

    /// The quick reading of `arguments` (without the program and command names) against
    /// `options`, or nil where only the full parser can say what the line means.
    public init?(_ arguments: [String], options: [Option]) {
        var index = 0
        var operandsOnly = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if operandsOnly || !argument.hasPrefix("-") {
                operands.append(argument)
                continue
            }
            if argument == "--" {
                operandsOnly = true
                continue
            }
            var inlineValue: String?
            let option: Option
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let known = options.first(where: { $0.long == name }) else { return nil }
                option = known
            } else {
                let letters = argument.dropFirst()
                guard letters.count == 1, let known = options.first(where: { $0.short == letters.first }) else { return nil }
                option = known
            }
            guard !flags.contains(option.long), value(option.long) == nil else { return nil }
            if !option.takesValue {
                guard inlineValue == nil else { return nil }
                flags.append(option.long)
                continue
            }
            if let inlineValue {
                values.append(Value(option: option.long, value: inlineValue))
                continue
            }
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            values.append(Value(option: option.long, value: arguments[index]))
            index += 1
        }
    }

    /// Whether the flag `long` was given.
    public func has(_ long: String) -> Bool { flags.contains(long) }

    /// The value given to the option `long`, if any.
    public func value(_ long: String) -> String? { values.first { $0.option == long }?.value }
}
