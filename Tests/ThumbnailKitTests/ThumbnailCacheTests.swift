import Foundation
import SystemKit
import Testing
@testable import ThumbnailKit

@Suite(.serialized) struct ThumbnailCacheTests {
    private func temporary() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("qlbrowse-cache-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func makeFile(_ path: String, _ contents: String = "hello") {
        FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
    }

    private func representation(_ side: Int = 4) -> Representation {
        Representation(type: .thumbnail, image: PixelImage(width: side, height: side / 2, filledWith: RGBA(200, 10, 10)), source: "vips", contentType: ContentType("image/png"))
    }

    @Test func theSpecExampleHashesAsTheSpecSays() {
        #expect(MD5.hex("file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697")
        #expect(MD5.hex("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex("The quick brown fox jumps over the lazy dog") == "9e107d9d372bb6826bd81d3542a419d6")
    }

    @Test func urisAreEscapedLikeGLib() {
        #expect(FileURI.from(absolutePath: "/home/jens/photos/me.png") == "file:///home/jens/photos/me.png")
        #expect(FileURI.from(absolutePath: "/a b/c#d?e%f.jpg") == "file:///a%20b/c%23d%3Fe%25f.jpg")
        #expect(FileURI.from(absolutePath: "/Fotos/Küche.jpg") == "file:///Fotos/K%C3%BCche.jpg")
        #expect(FileURI.from(absolutePath: "/x/it's (1)+[2];@=&$,~!*.png") == "file:///x/it's%20(1)+%5B2%5D%3B@=&$,~!*.png")
        #expect(FileURI.path(from: "file:///Fotos/K%C3%BCche.jpg") == "/Fotos/Küche.jpg")
    }

    @Test func sizeFoldersFollowTheStandard() {
        #expect(ThumbnailCache.Flavor.smallest(covering: PixelSize(width: 100, height: 100)) == .normal)
        #expect(ThumbnailCache.Flavor.smallest(covering: PixelSize(width: 256, height: 256)) == .large)
        #expect(ThumbnailCache.Flavor.smallest(covering: PixelSize(width: 257, height: 257)) == .xLarge)
        #expect(ThumbnailCache.Flavor.smallest(covering: PixelSize(width: 1024, height: 1024)) == .xxLarge)
        #expect(ThumbnailCache.Flavor.smallest(covering: PixelSize(width: 2048, height: 2048)) == nil)
    }

    @Test func aStoredThumbnailIsFoundWithItsKeysAndPrivatePermissions() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/photo.png"
        makeFile(file)
        let cache = ThumbnailCache(root: folder + "/thumbnails")
        let request = ThumbnailRequest(path: file)
        try cache.store(representation(), for: request, box: PixelSize(width: 256, height: 256))
        let stored = cache.path(forFile: file, flavor: .large)
        #expect(stored == folder + "/thumbnails/large/" + MD5.hex("file://" + folder + "/photo.png") + ".png")
        let png = try #require(FileManager.default.contents(atPath: stored))
        let info = try #require(PNGDecoder.info([UInt8](png)))
        let stamp = try #require(FileStamp(path: file))
        #expect(info.text["Thumb::URI"] == "file://" + folder + "/photo.png")
        #expect(info.text["Thumb::MTime"] == String(stamp.modified))
        #expect(info.text["Thumb::Size"] == "5")
        #expect(info.text["Thumb::Mimetype"] == "image/png")
        #expect(info.text["Software"]?.hasPrefix("qlbrowse") == true)
        #expect(info.colorType == 2 && info.bitDepth == 8 && !info.interlaced, "an opaque picture is stored as RGB")
        let attributes = try FileManager.default.attributesOfItem(atPath: stored)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder + "/thumbnails/large")
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        // A fresh cache object (nothing in memory) reads it back from disk.
        let found = ThumbnailCache(root: folder + "/thumbnails").cachedRepresentation(for: request, box: PixelSize(width: 256, height: 256))
        #expect(found?.type == .thumbnail)
        #expect(found?.image == representation().image)
        // A picture with transparency keeps its alpha channel.
        let clear = Representation(type: .thumbnail, image: PixelImage(width: 4, height: 2, filledWith: .clear), source: "vips", contentType: ContentType("image/png"))
        let other = folder + "/clear.png"
        makeFile(other)
        try cache.store(clear, for: ThumbnailRequest(path: other), box: PixelSize(width: 256, height: 256))
        let clearPNG = try #require(FileManager.default.contents(atPath: cache.path(forFile: other, flavor: .large)))
        #expect(PNGDecoder.info([UInt8](clearPNG))?.colorType == 6)
    }

    @Test func aChangedFileMakesItsThumbnailStaleEvenWhenTheTimeGoesBack() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a.jpg"
        makeFile(file)
        let cache = ThumbnailCache(root: folder + "/thumbnails", memoryBytes: 0)
        let box = PixelSize(width: 128, height: 128)
        try cache.store(representation(), for: ThumbnailRequest(path: file), box: box)
        #expect(cache.hasValidThumbnail(forFile: file, box: box))
        // An older mtime (a restored backup) is a change too: the rule is !=, not >.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: file)
        #expect(!cache.hasValidThumbnail(forFile: file, box: box))
        #expect(cache.cachedRepresentation(for: ThumbnailRequest(path: file), box: box) == nil)
    }

    @Test func aThumbnailFinishedAfterItsVolumeWentAwayIsStillKept() throws {
        // A batch reads the file, the share drops, the decode finishes: the stamp taken before the
        // read keys the entry, so when the share is back the job skips the file.
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a.jpg"
        makeFile(file)
        let before = try #require(FileStamp(path: file))
        try FileManager.default.removeItem(atPath: file)
        let cache = ThumbnailCache(root: folder + "/thumbnails", memoryBytes: 0)
        let box = PixelSize(width: 256, height: 256)
        #expect(try cache.store(representation(), for: ThumbnailRequest(path: file), box: box, stamp: before) != nil)
        makeFile(file)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(before.modified))], ofItemAtPath: file)
        #expect(ThumbnailCache(root: folder + "/thumbnails", memoryBytes: 0).hasValidThumbnail(forFile: file, box: box))
    }

    @Test func anotherSizeServesAsLowQuality() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a.jpg"
        makeFile(file)
        let cache = ThumbnailCache(root: folder + "/thumbnails")
        try cache.store(representation(64), for: ThumbnailRequest(path: file), box: PixelSize(width: 128, height: 128))
        let found = try #require(cache.cachedRepresentation(for: ThumbnailRequest(path: file), box: PixelSize(width: 512, height: 512)))
        #expect(found.type == .lowQuality)
        // A request that does not want low quality does not read other sizes at all.
        #expect(cache.cachedRepresentation(for: ThumbnailRequest(path: file, types: [.thumbnail]), box: PixelSize(width: 512, height: 512)) == nil)
    }

    @Test func aHitAtItsStoredSizeCarriesTheFileItWasReadFrom() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a.jpg"
        makeFile(file)
        let box = PixelSize(width: 256, height: 256)
        try ThumbnailCache(root: folder + "/thumbnails").store(representation(256), for: ThumbnailRequest(path: file), box: box)
        let fresh = ThumbnailCache(root: folder + "/thumbnails", memoryBytes: 0)
        let found = try #require(fresh.cachedRepresentation(for: ThumbnailRequest(path: file), box: box))
        let stored = try #require(FileManager.default.contents(atPath: fresh.path(forFile: file, flavor: .large)))
        #expect(found.encodedPNG == [UInt8](stored), "thumbnail -o writes the cache file as it is")
        // Fitted to a smaller box it is another picture, to be encoded again.
        #expect(fresh.cachedRepresentation(for: ThumbnailRequest(path: file), box: PixelSize(width: 200, height: 200))?.encodedPNG == nil)
    }

    @Test func failuresAreRememberedUntilTheFileChanges() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/broken.jpg"
        makeFile(file)
        let cache = ThumbnailCache(root: folder + "/thumbnails")
        let request = ThumbnailRequest(path: file)
        cache.recordFailure(ThumbnailError(.corrupt, "cannot decode image"), for: request)
        #expect(FileManager.default.fileExists(atPath: folder + "/thumbnails/fail/qlbrowse-\(EngineVersion.string)/" + MD5.hex("file://" + file) + ".png"))
        #expect(cache.knownFailure(for: request)?.reason.hasPrefix("cannot decode image") == true)
        #expect(ThumbnailCache(root: folder + "/thumbnails", ignoresStored: true).knownFailure(for: request) == nil)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 2_000_000)], ofItemAtPath: file)
        #expect(cache.knownFailure(for: request) == nil)
        // Cancellation is not the file's fault and is not remembered.
        cache.recordFailure(ThumbnailError(.cancelled, "cancelled"), for: request)
        #expect(cache.knownFailure(for: request) == nil)
    }

    @Test func sharedRepositoriesAreReadAndWrittenOnlyWhenAsked() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/My Photo.jpg"
        makeFile(file)
        let box = PixelSize(width: 128, height: 128)
        try ThumbnailCache(root: folder + "/thumbnails").store(representation(), for: ThumbnailRequest(path: file), box: box)
        let shared = folder + "/.sh_thumbnails/normal/" + MD5.hex("./My%20Photo.jpg") + ".png"
        #expect(!FileManager.default.fileExists(atPath: shared))
        try ThumbnailCache(root: folder + "/thumbnails", writesShared: true).store(representation(), for: ThumbnailRequest(path: file), box: box)
        let png = try #require(FileManager.default.contents(atPath: shared))
        #expect(PNGDecoder.info([UInt8](png))?.text["Thumb::URI"] == "./My%20Photo.jpg")
        // Another machine (an empty personal cache) finds it.
        let elsewhere = ThumbnailCache(root: folder + "/other-home-cache")
        #expect(elsewhere.cachedRepresentation(for: ThumbnailRequest(path: file), box: box)?.source == "shared")
        #expect(ThumbnailCache(root: folder + "/x", readsShared: false).cachedRepresentation(for: ThumbnailRequest(path: file), box: box) == nil)
    }

    @Test func aThumbnailThatCannotBeWrittenIsReportedNotSwallowed() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a.jpg"
        makeFile(file)
        // The cache's root sits under a plain file: its folders cannot be made (ENOTDIR, even for root).
        makeFile(folder + "/not-a-folder")
        let cache = ThumbnailCache(root: folder + "/not-a-folder/thumbnails")
        #expect(throws: ThumbnailError.self) {
            try cache.store(representation(), for: ThumbnailRequest(path: file), box: PixelSize(width: 256, height: 256))
        }
        do {
            try cache.store(representation(), for: ThumbnailRequest(path: file), box: PixelSize(width: 256, height: 256))
        } catch {
            #expect(error.code == .writeFailed && error.reason.contains("Not a directory"), "\(error.reason)")
        }
    }

    @Test func filesInsideTheCacheAreNeverCached() throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = ThumbnailCache(root: folder + "/thumbnails")
        try? FileManager.default.createDirectory(atPath: folder + "/thumbnails/large", withIntermediateDirectories: true)
        let inside = folder + "/thumbnails/large/abc.png"
        makeFile(inside)
        try cache.store(representation(), for: ThumbnailRequest(path: inside), box: PixelSize(width: 256, height: 256))
        #expect(cache.contains(inside))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder + "/thumbnails/large")) == ["abc.png"])
    }

    @Test func twoConcurrentWritersLeaveOneWholeValidFileAndNoTemporaries() async throws {
        let folder = temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a.png"
        makeFile(file)
        let root = folder + "/thumbnails"
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let cache = ThumbnailCache(root: root, memoryBytes: 0)
                    for round in 0..<50 {
                        _ = try? cache.store(Representation(type: .thumbnail, image: PixelImage(width: 64, height: 32, filledWith: RGBA(UInt8(writer * 100), UInt8(round), 0)),
                                                   source: "t", contentType: ContentType("image/png")),
                                    for: ThumbnailRequest(path: file), box: PixelSize(width: 128, height: 128))
                    }
                }
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/normal")
        #expect(names.count == 1 && names[0].hasSuffix(".png") && !names[0].hasPrefix("."))
        let png = try #require(FileManager.default.contents(atPath: root + "/normal/" + names[0]))
        #expect(PNGDecoder.decode([UInt8](png))?.size == PixelSize(width: 64, height: 32))
    }

    @Test func pngDecoderReadsWhatTheEncoderWrites() {
        var pixels: [UInt8] = []
        for index in 0..<(7 * 5) { pixels += [UInt8(index * 7 % 256), UInt8(index * 13 % 256), UInt8(index * 29 % 256), UInt8(255 - index)] }
        let image = PixelImage(width: 7, height: 5, pixels: pixels)
        #expect(PNGDecoder.decode(PNGEncoder.encode(image)) == image)
    }

    @Test func corruptPNGsAreMissesNotCrashes() {
        var png = PNGEncoder.encode(PixelImage(width: 8, height: 8, filledWith: .black))
        png[40] ^= 0xFF
        #expect(PNGDecoder.decode(png) == nil)
        #expect(PNGDecoder.decode(Array(png.prefix(30))) == nil)
        #expect(PNGDecoder.info([1, 2, 3]) == nil)
    }

    /// A batch's look-up skips the CRCs of the picture's data, nothing else: a cut file, a
    /// damaged header or text is still refused, and a full read still checks every CRC.
    @Test func theLookUpSkipsOnlyThePixelsCRCs() throws {
        let png = PNGEncoder.encode(PixelImage(width: 8, height: 8, filledWith: .black), text: [("Thumb::MTime", "7")])
        let data = try #require(Self.chunkRange(of: "IDAT", in: png))
        var damagedPixels = png
        damagedPixels[data.lowerBound] ^= 0xFF
        #expect(PNGDecoder.info(damagedPixels, checksPixels: false)?.text["Thumb::MTime"] == "7")
        #expect(PNGDecoder.info(damagedPixels) == nil)
        #expect(PNGDecoder.decode(damagedPixels) == nil)
        #expect(PNGDecoder.info(Array(png.dropLast(12)), checksPixels: false) == nil)  // IEND cut off
        #expect(PNGDecoder.info(Array(png.prefix(data.upperBound - 1)), checksPixels: false) == nil)
        var damagedText = png
        damagedText[try #require(Self.chunkRange(of: "tEXt", in: png)).lowerBound + 2] ^= 0x01
        #expect(PNGDecoder.info(damagedText, checksPixels: false) == nil)
        var damagedHeader = png
        damagedHeader[16] ^= 0x01
        #expect(PNGDecoder.info(damagedHeader, checksPixels: false) == nil)
    }

    /// Where the data of the first chunk of `type` lies.
    private static func chunkRange(of type: String, in png: [UInt8]) -> Range<Int>? {
        PNGChunks.list(png).first { $0.type == type }?.data
    }

    @Test func theMemoryLRUKeepsWithinItsBudget() {
        var lru = MemoryLRU(capacityBytes: 3 * 16)
        let stamp = FileStamp(modified: 1, size: 1)
        for index in 0..<5 {
            lru.insert(key: "\(index)", entry: .init(image: PixelImage(width: 2, height: 2, filledWith: .black), stamp: stamp, source: "t", contentType: nil))
        }
        #expect(lru.count == 3)
        #expect(lru.entry(for: "0", stamp: stamp) == nil)
        #expect(lru.entry(for: "4", stamp: stamp) != nil)
        #expect(lru.entry(for: "4", stamp: FileStamp(modified: 2, size: 1)) == nil)
    }

    @Test func shardsSplitFilesDeterministicallyAndCompletely() throws {
        let names = (0..<1000).map { "folder/photo\($0).jpg" }
        let shards = (1...4).map { ThumbnailBatch.Shard(index: $0, count: 4)! }
        let owners = names.map { name in shards.filter { $0.owns(relativePath: name) }.count }
        #expect(owners.allSatisfy { $0 == 1 })
        let sizes = shards.map { shard in names.filter { shard.owns(relativePath: $0) }.count }
        #expect(sizes.allSatisfy { $0 > 200 && $0 < 300 })
        #expect(ThumbnailBatch.Shard("2/4") == ThumbnailBatch.Shard(index: 2, count: 4))
        #expect(ThumbnailBatch.Shard("0/4") == nil && ThumbnailBatch.Shard("5/4") == nil && ThumbnailBatch.Shard("x") == nil)
    }
}
