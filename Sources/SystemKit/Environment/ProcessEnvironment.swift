internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// The process environment as a value: read once into a dictionary (`current`), or built from
/// one in tests, so code that looks up `$HOME` or the XDG folders can be pointed anywhere
/// without touching the real environment (tests run in parallel). The XDG base directories
/// with the specification's defaults are in `ProcessEnvironment+XDG.swift`.
public struct ProcessEnvironment: Sendable, Equatable {
    /// Every variable, by name.
    public let variables: [String: String]

    /// An environment given as a dictionary (tests, or a child's environment).
    public init(_ variables: [String: String]) { self.variables = variables }

    /// The environment of this process, as it is now.
    public static var current: ProcessEnvironment {
        var result: [String: String] = [:]
        var pointer = CSystem_environment()
        while let entry = pointer?.pointee {
            // Split at the first "=" as bytes: searching the text for it went character by
            // character (grapheme breaking), most of a short call's environment reading.
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                result[String(fileSystemBytes: bytes[..<equals])] = String(fileSystemBytes: bytes[(equals + 1)...])
            }
            pointer = pointer?.advanced(by: 1)
        }
        return ProcessEnvironment(result)
    }

    /// A variable's value, nil when unset or empty (the XDG specification treats both alike).
    public subscript(name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// One variable of this process's environment, nil when unset or empty, without copying the rest.
    public static func variable(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(fileSystemRepresentation: value)
    }

    /// `environ` itself, for posix_spawn: children get the environment as it is.
    public static var spawnEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { CSystem_environment() }
}
