import Foundation
import Testing

/// `qlbrowse edit annotate` on real files, checked by other programs: qpdf reads the annotations
/// back, pdftoppm draws them (the mark's colour inside its box and nowhere else), pdftotext still
/// finds the page's text, ImageMagick compares a marked picture with its original.
@Suite(.serialized) struct AnnotateCommandTests {
    private let folder = MarkupFolder()

    /// The fixtures' page 1 has no green: a green mark is the only green on it.
    static let green = "#1AB233"

    @Test func eachKindIsARealAnnotationOnThePageAndTheTextStays() throws {
        defer { folder.remove() }
        let pdf = try folder.copy("doc.pdf")
        let text = folder.tool(["pdftotext", pdf, "-"])
        let first = folder.edit(["annotate", "--page", "1", "--box", "100,100,200,50", "--colour", "green", "--note", "Look here ✓", "--json", pdf])
        #expect(first.status == 0 && first.stdout.contains("\"marks\":1"), "\(first.stdout) \(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.dataHome + "/Trash/files/doc.pdf"), "the original is in the Trash")
        let offPage = folder.edit(["annotate", "--page", "2", "--box", "700,100,20,20", pdf])
        #expect(offPage.status != 0 && offPage.stderr.contains("off page 2, which is 612×792 points"), "\(offPage.stderr)")
        let others = [["--kind", "ellipse", "--box", "300,300,100,60"], ["--kind", "arrow", "--points", "320,400,450,520"],
                      ["--kind", "highlight", "--box", "70,150,300,20"], ["--kind", "note", "--box", "60,650,300,60", "--note", "A note, é€"],
                      ["--kind", "freehand", "--points", "400,600,450,650,500,600"]]
        for options in others {
            let result = folder.edit(["annotate"] + options + [pdf])
            #expect(result.status == 0, "\(options): \(result.stderr)")
        }
        let annotations = folder.annotations(pdf, page: 0)
        #expect(annotations.map { $0["/Subtype"] as? String ?? "" } == ["/Square", "/Circle", "/Line", "/Highlight", "/FreeText", "/Ink"],
                "each run kept the annotations before it: \(annotations)")
        let square = try #require(annotations.first)
        // 100 points from the left, 100 down from the top of a 792-point page, 200 × 50.
        #expect(square["/Rect"] as? [Double] == [100, 642, 300, 692], "\(square)")
        #expect(square["/Contents"] as? String == "u:Look here ✓", "\(square)")
        #expect(annotations[2]["/LE"] as? [String] == ["/None", "/OpenArrow"], "\(annotations[2])")
        #expect((annotations[3]["/QuadPoints"] as? [Double])?.count == 8, "\(annotations[3])")
        #expect(annotations[4]["/Contents"] as? String == "u:A note, é€", "\(annotations[4])")
        #expect(annotations.allSatisfy { ($0["/AP"] as? [String: Any])?["/N"] != nil }, "every mark has its appearance")
        // The page's text is still text, every line of it (poppler adds the note's text among them).
        let after = folder.tool(["pdftotext", pdf, "-"])
        #expect(text.split(separator: "\n").allSatisfy { after.contains($0) }, "the page's text is still text: \(after)")
        #expect(folder.tool(["qpdf", "--check", pdf]).contains("No syntax or stream encoding errors"))
        let page = folder.render(pdf, cropBox: false)
        #expect(folder.count(Self.green, in: page, inside: (100, 100, 200, 50)) > 300, "the rectangle's outline is drawn")
        #expect(folder.count(Self.green, in: page, outside: (100, 100, 200, 50)) == 0, "and nothing green outside its box")
        #expect(!folder.names.contains { $0.contains("qlbrowse-edit") }, "\(folder.names)")
    }

    /// A page turned a quarter and cropped: the box is measured on the page as shown.
    @Test func aMarkOnATurnedAndCroppedPageIsWhereTheUserSawIt() throws {
        defer { folder.remove() }
        let source = try folder.copy("doc.pdf", as: "plain.pdf")
        let turned = folder.path("turned.pdf")
        try folder.rewrite(source, to: turned, replacing: "/MediaBox [0 0 612 792]", with: "/MediaBox [0 0 612 792] /CropBox [36 72 576 756] /Rotate 90")
        #expect(folder.tool(["pdfinfo", "-f", "1", "-l", "1", turned]).contains("rot:   90"))
        let result = folder.edit(["annotate", "--box", "100,100,200,50", "--colour", "green", turned])
        #expect(result.status == 0, "\(result.stderr)")
        let square = try #require(folder.annotations(turned, page: 0).first)
        // Shown x runs up the page from the crop's bottom, shown y right from its left.
        #expect(square["/Rect"] as? [Double] == [136, 172, 186, 372], "\(square)")
        let page = folder.render(turned, cropBox: true)
        #expect(TestEnvironment.pngSize(page).map { [$0.0, $0.1] } == [684, 540], "the crop box, turned")
        #expect(folder.count(Self.green, in: page, inside: (100, 100, 200, 50)) > 300)
        #expect(folder.count(Self.green, in: page, outside: (100, 100, 200, 50)) == 0)
    }

    @Test func anEncryptedPDFIsRefusedUntouchedUnlessItOpensWithoutAPasswordAndAllowsAnnotations() throws {
        defer { folder.remove() }
        let corpus = PreviewCorpusTests.corpus.appendingPathComponent("pdf")
        let refusals = ["pdfjs__issue6010_1.pdf": "encrypted and needs a password", "pdfjs__secHandler.pdf": "does not allow adding annotations"]
        for (name, reason) in refusals {
            let pdf = folder.path(name)
            try FileManager.default.copyItem(atPath: corpus.appendingPathComponent(name).path, toPath: pdf)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
            let refused = folder.edit(["annotate", "--box", "10,10,50,50", pdf])
            #expect(refused.status != 0 && refused.stderr.contains(reason), "\(name): \(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: pdf)) == bytes, "\(name) is untouched")
        }
        #expect(folder.names.sorted() == refusals.keys.sorted(), "no temporary, no copy: \(folder.names)")
        // AES-128 with an empty user password: annotated, and still encrypted the same way.
        let open = folder.path("aes.pdf")
        try FileManager.default.copyItem(atPath: corpus.appendingPathComponent("qpdf__V4-aes.pdf").path, toPath: open)
        let result = folder.edit(["annotate", "--kind", "ellipse", "--box", "10,10,50,50", "--note", "inside", open])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(folder.tool(["qpdf", "--show-encryption", open]).contains("R = 4"))
        #expect(folder.annotations(open, page: 0).last?["/Contents"] as? String == "u:inside")
    }

    /// A rewrite breaks a signature over the old bytes: a PDF whose form says it is signed is refused.
    @Test func aSignedPDFIsRefusedUntouched() throws {
        defer { folder.remove() }
        let plain = try folder.copy("doc.pdf", as: "plain.pdf"), signed = folder.path("signed.pdf")
        try folder.rewrite(plain, to: signed, replacing: "/Type /Catalog", with: "/Type /Catalog /AcroForm << /Fields [] /SigFlags 3 >>")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: signed))
        let refused = folder.edit(["annotate", "--box", "10,10,50,50", signed])
        #expect(refused.status != 0 && refused.stderr.contains("the PDF is signed"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: signed)) == bytes && folder.names == ["plain.pdf", "signed.pdf"], "\(folder.names)")
        #expect(folder.edit(["annotate", "--box", "10,10,50,50", plain]).status == 0, "the same PDF unsigned is annotated")
    }

    @Test func aPNGChangesOnlyInsideItsShapesAndAJPEGKeepsItsQualityAndOrientationAsShown() throws {
        defer { folder.remove() }
        let png = try folder.copy("interlaced.png", as: "picture.png")
        let original = try folder.copy("interlaced.png", as: "original.png")
        for options in [["--kind", "ellipse", "--box", "10,10,80,50"], ["--kind", "note", "--box", "150,100,120,60", "--note", "Hi there", "--colour", "blue"]] {
            let result = folder.edit(["annotate"] + options + [png])
            #expect(result.status == 0 && !result.stdout.contains("not lossless"), "\(result.stdout) \(result.stderr)")
        }
        let off = folder.edit(["annotate", "--box", "400,10,20,20", png])
        #expect(off.status != 0 && off.stderr.contains("off the picture, which is 300×200 pixels"), "\(off.stderr)")
        // Every changed pixel lies inside the two boxes, and both boxes changed.
        let changed = folder.path("changed.png")
        _ = folder.tool(["convert", original, png, "-compose", "difference", "-composite", "-threshold", "0", changed])
        #expect(folder.tool(["convert", changed, "-fill", "black", "-draw", "rectangle 10,10 89,59", "-draw", "rectangle 150,100 269,159", "-format", "%[max]", "info:"]) == "0")
        #expect(folder.count("white", in: changed, inside: (10, 10, 80, 50)) > 100 && folder.count("white", in: changed, inside: (150, 100, 120, 60)) > 100)
        // A photo stored turned (EXIF 6): marked as shown, written upright at its own quality.
        let photo = try folder.copy("portrait-exif6.jpg", as: "photo.jpg")
        let quality = folder.tool(["identify", "-format", "%Q", photo])
        let result = folder.edit(["annotate", "--box", "300,20,150,100", "--colour", "green", "--copy", photo])
        #expect(result.stdout.contains("quality \(quality)") && result.stdout.contains("not lossless"), "\(result.stdout) \(result.stderr)")
        let marked = folder.path("photo (edited).jpg")
        #expect(folder.tool(["identify", "-format", "%w×%h %Q", marked]) == "480×640 \(quality)")
        let upright = folder.path("upright.png"), shown = folder.path("shown.png")
        _ = folder.tool(["convert", photo, "-auto-orient", upright])
        _ = folder.tool(["convert", marked, "-auto-orient", shown])
        #expect(folder.count(Self.green, in: shown, inside: (300, 20, 150, 100)) > 300, "the mark is where it was put on the upright picture")
        // Outside the box only the new encoding differs.
        let masked = [upright, shown].map { file in
            let out = file + ".masked.png"
            _ = folder.tool(["convert", file, "-fill", "black", "-draw", "rectangle 296,16 453,123", out])
            return out
        }
        let psnr = TestEnvironment.run("/usr/bin/compare", ["-metric", "PSNR", masked[0], masked[1], "null:"]).stderr
        #expect((Double(psnr.split(separator: " ").first ?? "") ?? 0) >= 35, "PSNR outside the mark \(psnr)")
    }

    /// The original is checked unchanged before it is replaced: written to while the mark was
    /// being drawn into a large picture, it stays as the other writer left it.
    @Test func aFileChangedWhileItWasMarkedIsNotReplaced() throws {
        defer { folder.remove() }
        let big = folder.path("big.png")
        _ = folder.tool(["convert", "-size", "4000x3000", "gradient:red-blue", "-depth", "8", big])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestEnvironment.qlbrowse)
        process.arguments = ["edit", "annotate", "--box", "100,100,500,500", big]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": folder.dataHome, "QLBROWSE_NO_SERVICE": "1"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The edit's temporary appears beside the picture when the worker starts on it.
        let deadline = Date().addingTimeInterval(30)
        while !folder.names.contains(where: { $0.contains("qlbrowse-edit") }), process.isRunning, Date() < deadline { usleep(2000) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        handle.seekToEndOfFile()
        handle.write(Data("another writer".utf8))
        try handle.close()
        let changed = try Data(contentsOf: URL(fileURLWithPath: big))
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0 && stderr.contains("changed while it was being edited: nothing was replaced"), "\(stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: big)) == changed, "the other writer's file stays")
        #expect(folder.names == ["big.png"], "no temporary and no copy: \(folder.names)")
        #expect(!FileManager.default.fileExists(atPath: folder.dataHome + "/Trash/files/big.png"))
    }
}
