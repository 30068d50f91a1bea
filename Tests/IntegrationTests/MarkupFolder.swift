import Foundation

/// A folder for Markup tests with its own Trash, and the outside tools that check the results:
/// qpdf's JSON for annotations, pdftoppm for pages, ImageMagick for counting a colour's pixels.
struct MarkupFolder {
    let url = TestEnvironment.temporaryFolder("qlbrowse-markup")
    var dataHome: String { url.path + "/.data" }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func copy(_ fixture: String, as name: String? = nil) throws -> String {
        let target = path(name ?? fixture)
        try FileManager.default.copyItem(atPath: TestEnvironment.fixtures.appendingPathComponent(fixture).path, toPath: target)
        return target
    }

    /// What is in the folder, the Trash and the test's pictures of pages left out.
    var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0 != ".data" && !$0.hasPrefix("render-") }.sorted()
    }

    @discardableResult
    func edit(_ arguments: [String]) -> TestEnvironment.Result {
        TestEnvironment.run(TestEnvironment.qlbrowse, ["edit"] + arguments, environment: ["XDG_DATA_HOME": dataHome])
    }

    func tool(_ arguments: [String]) -> String {
        TestEnvironment.run("/usr/bin/env", arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A PDF edited as bytes, its cross-reference table then rebuilt by qpdf (which warns, exit 3).
    func rewrite(_ source: String, to target: String, replacing old: String, with new: String) throws {
        // Latin-1 maps each byte to one character and back, so the PDF's binary parts survive.
        let text = String(data: try Data(contentsOf: URL(fileURLWithPath: source)), encoding: .isoLatin1) ?? ""
        let damaged = path("damaged.pdf")
        try text.replacingOccurrences(of: old, with: new).data(using: .isoLatin1)?.write(to: URL(fileURLWithPath: damaged))
        _ = TestEnvironment.run("/usr/bin/qpdf", [damaged, target])
        try FileManager.default.removeItem(atPath: damaged)
    }

    /// A page's annotations as qpdf reads them (JSON v2: names as "/Name", text as "u:text"),
    /// references followed.
    func annotations(_ pdf: String, page: Int) -> [[String: Any]] {
        let output = TestEnvironment.run("/usr/bin/qpdf", ["--json=2", "--json-key=pages", "--json-key=qpdf", pdf]).stdout
        guard let json = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let pages = json["pages"] as? [[String: Any]], pages.indices.contains(page), let reference = pages[page]["object"] as? String,
              let qpdf = json["qpdf"] as? [Any], qpdf.count > 1, let objects = qpdf[1] as? [String: Any] else { return [] }
        func resolve(_ value: Any) -> Any? {
            guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
            return (objects["obj:" + reference] as? [String: Any])?["value"]
        }
        guard let pageObject = resolve(reference) as? [String: Any], let annots = pageObject["/Annots"].flatMap(resolve) as? [Any] else { return [] }
        // Arrays of numbers as [Double], for comparing.
        return annots.compactMap { resolve($0) as? [String: Any] }.map { annotation in
            annotation.mapValues { value in
                guard let array = value as? [Any] else { return value }
                let numbers = array.compactMap { $0 as? NSNumber }.map(\.doubleValue)
                return numbers.count == array.count ? numbers : value
            }
        }
    }

    /// Page 1 drawn by pdftoppm at 72 dpi, one pixel a point: the media box, or the crop box as shown.
    func render(_ pdf: String, cropBox: Bool) -> String {
        let stem = path("render-\(UUID().uuidString)")
        _ = TestEnvironment.run("/usr/bin/pdftoppm", ["-r", "72", "-f", "1", "-l", "1", "-png", "-singlefile"] + (cropBox ? ["-cropbox"] : []) + [pdf, stem])
        return stem + ".png"
    }

    /// Pixels within 12% of `colour` inside the box (x, y, width, height) of a picture.
    func count(_ colour: String, in picture: String, inside box: (Int, Int, Int, Int)) -> Int {
        Int(tool(["convert", picture, "-crop", "\(box.2)x\(box.3)+\(box.0)+\(box.1)", "+repage"] + matching(colour))) ?? -1
    }

    /// The same outside the box widened by two pixels (antialiased edges).
    func count(_ colour: String, in picture: String, outside box: (Int, Int, Int, Int)) -> Int {
        let cover = "rectangle \(box.0 - 2),\(box.1 - 2) \(box.0 + box.2 + 1),\(box.1 + box.3 + 1)"
        return Int(tool(["convert", picture, "-fill", colour == "white" ? "black" : "white", "-draw", cover] + matching(colour))) ?? -1
    }

    private func matching(_ colour: String) -> [String] {
        ["-alpha", "off", "-fuzz", "12%", "-fill", "black", "+opaque", colour, "-fill", "white", "-opaque", colour,
         "-colorspace", "gray", "-format", "%[fx:round(mean*w*h)]", "info:"]
    }
}

