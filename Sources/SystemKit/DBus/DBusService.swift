internal import CGio
#if canImport(Glibc)
import Glibc
#endif

/// One service on the D-Bus session bus (GDBus underneath, its library opened only here): a name
/// asked for, one interface served at one path, method calls handed over as `Call`s, signals
/// sent. Calls arrive on the thread that runs `run()`; answers and signals may come from any.
public final class DBusService: @unchecked Sendable {
    /// A method call: its name, its arguments by position, and one answer.
    public struct Call: @unchecked Sendable {
        fileprivate let raw: OpaquePointer
        public let method: String

        /// The caller's unique bus name, for signals meant for it alone.
        public var sender: String? { DBusService.take(CGio_call_sender(raw)) }
        public func string(_ index: Int) -> String? { DBusService.take(CGio_call_string(raw, Int32(index))) }
        public func uint(_ index: Int) -> UInt32 { CGio_call_uint(raw, Int32(index)) }
        public func strings(_ index: Int) -> [String] {
            guard let list = CGio_call_strings(raw, Int32(index)) else { return [] }
            defer { CGio_free_strings(list) }
            var result: [String] = []
            var cursor = list
            while let item = cursor.pointee {
                result.append(String(cString: item))
                cursor += 1
            }
            return result
        }

        public func reply() { CGio_return_nothing(raw) }
        public func reply(_ value: UInt32) { CGio_return_uint(raw, value) }
        public func reply(_ first: [String], _ second: [String]? = nil) {
            DBusService.withCStrings(first) { one in
                if let second { DBusService.withCStrings(second) { two in CGio_return_strings(raw, one, two) } } else { CGio_return_strings(raw, one, nil) }
            }
        }
        public func fail(_ message: String) { CGio_return_error(raw, message) }
    }

    private let handle: (Call) -> Void
    /// Why the name is not, or no longer, this service's.
    public enum Loss: Sendable {
        /// No session bus could be reached.
        case noBus
        /// Another program has the name, or took it over.
        case taken
        /// The bus went away (the session ended).
        case busGone
        /// The bus would not take the interface at its path.
        case refused
    }

    private let lost: (DBusService, Loss) -> Void

    private init(handle: @escaping (Call) -> Void, lost: @escaping (DBusService, Loss) -> Void) {
        self.handle = handle
        self.lost = lost
    }

    /// Asks for `name` and serves the interface `introspection` describes (one interface) at
    /// `path`; `replace` takes the name over from an owner that allows it (this one does).
    /// `lost` is told when the name could not be had or was lost, and why. Nothing arrives before `run()`.
    public static func serve(name: String, path: String, introspection: String, replace: Bool,
                             handle: @escaping (Call) -> Void, lost: @escaping (DBusService, Loss) -> Void) throws(FileSystemError) -> DBusService {
        let service = DBusService(handle: handle, lost: lost)
        let context = Unmanaged.passRetained(service).toOpaque()  // lives as long as the process serves
        if let why = CGio_serve(name, path, introspection, replace ? 1 : 0, { context, call, method in
            guard let context, let call, let method else { return }
            Unmanaged<DBusService>.fromOpaque(context).takeUnretainedValue().handle(Call(raw: call, method: String(cString: method)))
        }, { context, why in
            guard let context else { return }
            let service = Unmanaged<DBusService>.fromOpaque(context).takeUnretainedValue()
            let loss: Loss = switch why {
            case Int32(CGio_lost_taken): .taken
            case Int32(CGio_lost_bus_gone): .busGone
            case Int32(CGio_lost_unregistered): .refused
            default: .noBus
            }
            service.lost(service, loss)
        }, context) {
            Unmanaged<DBusService>.fromOpaque(context).release()
            throw FileSystemError(code: .unsupported, path: name, context: String(cString: why))
        }
        return service
    }

    /// Serves until `stop()`.
    public func run() { CGio_run() }
    public func stop() { CGio_quit() }

    /// Calls `tick` every `seconds` on the thread calls arrive on (so never beside one of them).
    public func every(seconds: Int, _ tick: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Tick(tick)).toOpaque()  // lives as long as the loop
        CGio_every(UInt32(max(1, seconds)), { context in
            guard let context else { return }
            Unmanaged<Tick>.fromOpaque(context).takeUnretainedValue().body()
        }, context)
    }

    private final class Tick {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Sends `signal` to `destination` (a caller's unique name; nil: every listener) with a number
    /// (`Started(u)`), a number and strings (`Ready(u as)`), or those and a code and a message
    /// (`Error(u as i s)`); false when it could not be sent.
    @discardableResult
    public func emit(_ signal: String, to destination: String?, _ number: UInt32) -> Bool {
        CGio_emit_handle(destination, signal, number) == 0
    }
    @discardableResult
    public func emit(_ signal: String, to destination: String?, _ number: UInt32, _ strings: [String]) -> Bool {
        Self.withCStrings(strings) { CGio_emit_handle_strings(destination, signal, number, $0) } == 0
    }
    @discardableResult
    public func emit(_ signal: String, to destination: String?, _ number: UInt32, _ strings: [String], code: Int32, message: String) -> Bool {
        Self.withCStrings(strings) { CGio_emit_error(destination, signal, number, $0, code, message) } == 0
    }

    /// A C string of CGio's, copied and freed.
    fileprivate static func take(_ string: UnsafeMutablePointer<CChar>?) -> String? {
        guard let string else { return nil }
        defer { CGio_free(string) }
        return String(cString: string)
    }

    /// `strings` as a NULL-ended C array for the length of `body`.
    static func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let list = copies.map { UnsafePointer($0) } + [nil]
        return list.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
