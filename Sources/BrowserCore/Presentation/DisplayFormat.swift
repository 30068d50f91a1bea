import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// How sizes, times and durations are written everywhere on screen: one format each.
public enum DisplayFormat {
    /// A byte count: "812 B", "1.5 MB" (powers of 1000, as file managers show them).
    public static func bytes(_ count: Int64) -> String { ByteCount.text(Int(clamping: count)) }

    /// A count with thousands separated: "120,431".
    public static func count(_ value: Int) -> String { GroupedNumber.text(value) }

    /// A duration: "42s", "3m7s", "2h5m".
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(saturating: max(0, seconds).rounded())
        if whole >= 3600 { return "\(whole / 3600)h\(whole % 3600 / 60)m" }
        if whole >= 60 { return "\(whole / 60)m\(whole % 60)s" }
        return "\(whole)s"
    }

    /// A position in a song or video: "0:07", "12:30", "1:02:03".
    public static func clock(_ seconds: Double) -> String {
        let whole = Int(saturating: max(0, seconds))
        let tail = (whole % 3600 / 60 < 10 && whole >= 3600 ? "0" : "") + "\(whole % 3600 / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
        return whole >= 3600 ? "\(whole / 3600):" + tail : tail
    }

    /// A modification time in local time: "2026-11-24 09:05".
    public static func date(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A number with one decimal: "2.5".
    public static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// A progress bar of `width` cells and the percentage: "[█████·····] 50%".
    public static func bar(_ fraction: Double, width: Int = 20) -> String {
        let clamped = min(1, max(0, fraction))
        let filled = Int((clamped * Double(width)).rounded())
        return "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + "] \(Int(clamped * 100))%"
    }

    /// A name cut in the middle to `width` characters, its end and extension kept:
    /// "exifsample…a_8.3_5G.jpg". Names that differ only in the middle (a camera's counter, a
    /// model) stay apart better than with the end cut; an extension longer than the half is not kept whole.
    public static func elideMiddle(_ name: String, to width: Int) -> String {
        guard name.count > width else { return name }
        guard width >= 5 else { return clip(name, to: width) }
        let characters = Array(name)
        var tail = (width - 1) - (width - 1) / 2
        if let dot = characters.lastIndex(of: "."), dot > 0 {
            let extensionLength = characters.count - dot
            if extensionLength < width / 2 { tail = max(tail, extensionLength + 1) }
        }
        let head = width - 1 - tail
        return String(characters[..<head]) + "…" + String(characters[(characters.count - tail)...])
    }

    /// `text` cut to `width` characters, ending in "…" when cut.
    public static func clip(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    /// `text` cut or padded with spaces to `width` characters.
    public static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
