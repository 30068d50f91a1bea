internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// The process environment as a value: this process's own (`current`, each variable read when
/// asked), or one built from a dictionary in tests, so code that looks up `$HOME` or the XDG
/// folders can be pointed anywhere without touching the real environment (tests run in
/// parallel). The XDG base directories with the specification's defaults are in
/// `ProcessEnvironment+XDG.swift`.
public struct ProcessEnvironment: Sendable, Equatable {
    /// The variables given; nil for this process's own. A short call asks for two or three
    /// variables: copying all of them into a dictionary had its first `[String: String]` look its
    /// type up through every conformance of the program (4 % of a cached `thumbnail` call).
    private let given: [String: String]?

    /// Every variable, by name (this process's: as they are now).
    public var variables: [String: String] { given ?? Self.processVariables() }

    /// An environment given as a dictionary (tests, or a child's environment).
    public init(_ variables: [String: String]) { given = variables }

    private init() { given = nil }

    /// The environment of this process; its variables are read when asked for.
    public static var current: ProcessEnvironment { ProcessEnvironment() }

    /// A variable's value, nil when unset or empty (the XDG specification treats both alike).
    public subscript(name: String) -> String? {
        guard let given else { return Self.variable(name) }
        guard let value = given[name], !value.isEmpty else { return nil }
        return value
    }

    public static func == (lhs: ProcessEnvironment, rhs: ProcessEnvironment) -> Bool { lhs.variables == rhs.variables }

    /// Every variable of this process, split at the first "=" as bytes (searching the text for it
    /// went character by character: grapheme breaking).
    private static func processVariables() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = CSystem_environment()
        while let entry = pointer?.pointee {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            // A name given twice keeps its first value, as getenv (and so the subscript) reads it.
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(fileSystemBytes: bytes[..<equals])
                if result[name] == nil { result[name] = String(fileSystemBytes: bytes[(equals + 1)...]) }
            }
            pointer = pointer?.advanced(by: 1)
        }
        return result
    }

    /// One variable of this process's environment, nil when unset or empty, without copying the rest.
    public static func variable(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(fileSystemRepresentation: value)
    }

    /// `environ` itself, for posix_spawn: children get the environment as it is.
    public static var spawnEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { CSystem_environment() }
}
