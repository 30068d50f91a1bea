/// tmux's passthrough envelope: `ESC P tmux ; <sequence with every ESC doubled> ESC \`.
/// tmux then hands the sequence to the outer terminal unchanged (with `allow-passthrough on`).
public enum TmuxPassthrough {
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1B, UInt8(ascii: "P")] + Array("tmux;".utf8)
        out.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            out.append(byte)
            if byte == 0x1B { out.append(0x1B) }
        }
        return out + [0x1B, UInt8(ascii: "\\")]
    }
}
