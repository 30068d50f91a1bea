import Foundation
import SystemKit
import Testing
@testable import ThumbnailKit

/// Shared thumbnail repositories as the Thumbnail Managing Standard 0.9 defines them: names are
/// md5 of the relative URI `./name`, `Thumb::URI` is that URI, and `Thumb::MTime` is checked only
/// when present.
@Suite(.serialized) struct SharedRepositoryTests {
    private let box = PixelSize(width: 128, height: 128)

    private func temporary() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("qlbrowse-shared-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func makeFile(_ path: String) throws -> FileStamp {
        FileManager.default.createFile(atPath: path, contents: Data("not really a photo".utf8))
        return try #require(FileStamp(path: path))
    }

    /// Writes a thumbnail into `.sh_thumbnails/normal/` by the standard's rules alone (the name
    /// computed here, not by the cache), as another program would.
    private func writeForeignThumbnail(folder: String, relativeURI: String, text: [(String, String)]) throws {
        let target = "\(folder)/.sh_thumbnails/normal/\(MD5.hex(relativeURI)).png"
        try FileManager.default.createDirectory(atPath: folder + "/.sh_thumbnails/normal", withIntermediateDirectories: true)
        let image = PixelImage(width: 100, height: 50, filledWith: RGBA(10, 200, 10))
        FileManager.default.createFile(atPath: target, contents: Data(PNGEncoder.encode(image, text: text)))
    }

    @Test func theStandardsExampleNamesTheFile() {
        #expect(MD5.hex("./picture.png") == "7fd0e41c1612f860427a76c4100745a3")
        #expect(ThumbnailCache.sharedURI(forFile: "/media/cd/picture.png") == "./picture.png")
        #expect(ThumbnailCache.sharedPath(forFile: "/media/cd/picture.png", flavor: .normal)
                == "/media/cd/.sh_thumbnails/normal/7fd0e41c1612f860427a76c4100745a3.png")
        #expect(ThumbnailCache.sharedURI(forFile: "/media/cd/My Küche.jpg") == "./My%20K%C3%BCche.jpg")
    }

    @Test func aThumbnailWrittenByTheStandardsRulesIsUsed() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stamp = try makeFile(folder + "/My Photo.jpg")
        try writeForeignThumbnail(folder: folder, relativeURI: "./My%20Photo.jpg",
                                  text: [("Thumb::URI", "./My%20Photo.jpg"), ("Thumb::MTime", String(stamp.modified)), ("Thumb::Size", String(stamp.size))])
        let cache = ThumbnailCache(root: folder + "/home-cache")
        let found = try #require(cache.cachedRepresentation(for: ThumbnailRequest(path: folder + "/My Photo.jpg"), box: box))
        #expect(found.source == "shared")
        #expect(found.image.size == PixelSize(width: 100, height: 50))
        #expect(cache.hasValidThumbnail(forFile: folder + "/My Photo.jpg", box: box))
    }

    @Test func aSharedThumbnailWithoutMTimeIsUsedAndAWrongMTimeIsNot() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stamp = try makeFile(folder + "/a.jpg")
        _ = try makeFile(folder + "/b.jpg")
        try writeForeignThumbnail(folder: folder, relativeURI: "./a.jpg", text: [("Thumb::URI", "./a.jpg")])
        try writeForeignThumbnail(folder: folder, relativeURI: "./b.jpg",
                                  text: [("Thumb::URI", "./b.jpg"), ("Thumb::MTime", String(stamp.modified - 100))])
        let cache = ThumbnailCache(root: folder + "/home-cache")
        #expect(cache.cachedRepresentation(for: ThumbnailRequest(path: folder + "/a.jpg"), box: box)?.source == "shared")
        #expect(cache.hasValidThumbnail(forFile: folder + "/a.jpg", box: box))
        #expect(cache.cachedRepresentation(for: ThumbnailRequest(path: folder + "/b.jpg"), box: box) == nil)
        // The personal cache still insists on MTime.
        let personal = cache.path(forFile: folder + "/b.jpg", flavor: .normal)
        try FileManager.default.createDirectory(atPath: folder + "/home-cache/normal", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: personal, contents: Data(PNGEncoder.encode(PixelImage(width: 4, height: 4, filledWith: .clear),
                                                                                     text: [("Thumb::URI", FileURI.from(absolutePath: folder + "/b.jpg"))])))
        #expect(ThumbnailCache(root: folder + "/home-cache", readsShared: false).cachedRepresentation(for: ThumbnailRequest(path: folder + "/b.jpg"), box: box) == nil)
    }

    @Test func ourSharedThumbnailsReadBackWithAnIndependentPNGReader() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stamp = try makeFile(folder + "/My Photo.jpg")
        let representation = Representation(type: .thumbnail, image: PixelImage(width: 120, height: 60, filledWith: RGBA(200, 10, 10)),
                                            source: "vips", contentType: ContentType("image/jpeg"))
        try ThumbnailCache(root: folder + "/home-cache", writesShared: true)
            .store(representation, for: ThumbnailRequest(path: folder + "/My Photo.jpg"), box: box)
        // Python names the file by the standard (hashlib) and reads it with PIL.
        let script = """
            import hashlib, json, os, sys
            from PIL import Image
            folder = sys.argv[1]
            uri = './My%20Photo.jpg'
            path = os.path.join(folder, '.sh_thumbnails', 'normal', hashlib.md5(uri.encode()).hexdigest() + '.png')
            image = Image.open(path)
            print(json.dumps({'size': list(image.size), 'text': dict(image.text),
                              'files': os.listdir(os.path.join(folder, '.sh_thumbnails', 'normal'))}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, folder]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let text = try #require(json["text"] as? [String: String])
        #expect(text["Thumb::URI"] == "./My%20Photo.jpg")
        #expect(text["Thumb::MTime"] == String(stamp.modified))
        #expect(text["Thumb::Size"] == String(stamp.size))
        #expect(text["Thumb::Mimetype"] == "image/jpeg")
        #expect(json["size"] as? [Int] == [120, 60])
        #expect(json["files"] as? [String] == [MD5.hex("./My%20Photo.jpg") + ".png"])
    }

    private func store(_ file: String, in folder: String, shared: Bool = true) {
        let representation = Representation(type: .thumbnail, image: PixelImage(width: 40, height: 20, filledWith: RGBA(200, 10, 10)),
                                            source: "vips", contentType: ContentType("image/jpeg"))
        _ = try? ThumbnailCache(root: folder + "/home-cache", writesShared: shared).store(representation, for: ThumbnailRequest(path: file), box: box)
    }

    private func mode(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : nil
    }

    @Test func aSharedThumbnailIsNeverMoreReadableThanItsFile() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, fileMode) in [("everyone.jpg", 0o644), ("others-only.jpg", 0o604), ("private.jpg", 0o600), ("group.jpg", 0o640)] as [(String, mode_t)] {
            _ = try makeFile("\(folder)/\(name)")
            chmod("\(folder)/\(name)", fileMode)
            store("\(folder)/\(name)", in: folder)
        }
        let normal = folder + "/.sh_thumbnails/normal/"
        #expect(mode(normal + ThumbnailCache.sharedName(forFile: "everyone.jpg")).map { $0 & 0o777 } == 0o644)
        #expect(mode(normal + ThumbnailCache.sharedName(forFile: "others-only.jpg")).map { $0 & 0o777 } == 0o604)
        #expect(mode(normal + ThumbnailCache.sharedName(forFile: "private.jpg")) == nil, "a 0600 file's picture was published")
        #expect(mode(normal + ThumbnailCache.sharedName(forFile: "group.jpg")) == nil, "a 0640 file's picture was published")
        // A link to a readable file is not published either: its picture belongs to another place.
        #expect(symlink(folder + "/everyone.jpg", folder + "/link.jpg") == 0)
        store(folder + "/link.jpg", in: folder)
        #expect(mode(normal + ThumbnailCache.sharedName(forFile: "link.jpg")) == nil)
    }

    @Test func aPlantedFIFOOrLinkAtTheNameIsReplacedNeverOpened() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let elsewhere = temporary()
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        _ = try makeFile(folder + "/a.jpg")
        _ = try makeFile(folder + "/b.jpg")
        try FileManager.default.createDirectory(atPath: folder + "/.sh_thumbnails/normal", withIntermediateDirectories: true)
        let fifo = folder + "/.sh_thumbnails/normal/" + ThumbnailCache.sharedName(forFile: "a.jpg")
        let link = folder + "/.sh_thumbnails/normal/" + ThumbnailCache.sharedName(forFile: "b.jpg")
        #expect(mkfifo(fifo, 0o666) == 0)
        #expect(symlink(elsewhere + "/target.png", link) == 0)
        let start = ContinuousClock.now
        // Read first (the planted FIFO must not hold the look-up), then written over.
        #expect(ThumbnailCache(root: folder + "/home-cache").cachedRepresentation(for: ThumbnailRequest(path: folder + "/a.jpg"), box: box) == nil)
        store(folder + "/a.jpg", in: folder)
        store(folder + "/b.jpg", in: folder)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(mode(fifo).map { $0 & S_IFMT } == S_IFREG, "the FIFO was not replaced by the thumbnail")
        #expect(mode(link).map { $0 & S_IFMT } == S_IFREG, "the link was not replaced by the thumbnail")
        #expect(!FileManager.default.fileExists(atPath: elsewhere + "/target.png"), "written through the planted link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/.sh_thumbnails/normal").allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func sharedCopiesWhatThePersonalCacheHolds() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stamp = try makeFile(folder + "/a.jpg")
        store(folder + "/a.jpg", in: folder, shared: false)
        #expect(!FileManager.default.fileExists(atPath: folder + "/.sh_thumbnails"))
        let cache = ThumbnailCache(root: folder + "/home-cache", writesShared: true)
        #expect(cache.hasValidThumbnail(forFile: folder + "/a.jpg", box: box))
        #expect(cache.publishShared(forFile: folder + "/a.jpg", box: box))
        let png = try #require(FileManager.default.contents(atPath: ThumbnailCache.sharedPath(forFile: folder + "/a.jpg", flavor: .normal)))
        let info = try #require(PNGDecoder.info([UInt8](png)))
        #expect(info.text["Thumb::URI"] == "./a.jpg")
        #expect(info.text["Thumb::MTime"] == String(stamp.modified))
        #expect(info.text["Thumb::Mimetype"] == "image/jpeg")
    }
}
