import SystemKit
import ThumbnailKit

/// Output file names for `qlbrowse thumbnail`: the input's name plus the format's extension
/// (`photo.jpg` → `photo.jpg.png`, as `qlmanage -t` does), made unique within one run so two
/// inputs with the same name in different folders do not overwrite each other.
final class OutputNames {
    private let folder: String
    private let format: ImageFormat
    /// Names given so far, as bytes (String equality would take NFC and NFD twins for one): the
    /// first alone, the others in a set. A call with one file (what other programs make) never
    /// builds the set, whose generic type costs a scan of the binary's conformances on first use.
    private var first: [UInt8]?
    private var others: Set<[UInt8]> = []

    init(folder: String, format: ImageFormat) {
        self.folder = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        self.format = format
    }

    func path(for input: String) -> String {
        var base = input.split(separator: "/").last.map(String.init) ?? "file"
        if base == "." || base == ".." { base = "folder" }
        // Room for " (N)" and the extension within the 255 bytes of a name.
        base = FileSystemBytes.prefix(of: base, bytes: 255 - 12 - format.fileExtension.utf8.count)
        var candidate = "\(base).\(format.fileExtension)"
        var counter = 2
        while isUsed(Array(candidate.utf8)) {
            candidate = "\(base) (\(counter)).\(format.fileExtension)"
            counter += 1
        }
        if first == nil { first = Array(candidate.utf8) } else { others.insert(Array(candidate.utf8)) }
        return "\(folder)/\(candidate)"
    }

    private func isUsed(_ name: [UInt8]) -> Bool {
        name == first || (!others.isEmpty && others.contains(name))
    }
}
