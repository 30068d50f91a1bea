import FileSystemKit
import Foundation
@testable import Places
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The remote protocol's codec: every request and answer through a frame and back, listings
/// packed and unpacked byte for byte, the hello read across versions, addresses parsed.
@Suite struct RemoteCodecTests {
    /// `caf\xE9/a\xFF.jpg`: not UTF-8.
    static let oddPath = String(fileSystemBytes: Array("/srv/caf".utf8) + [0xE9] + Array("/a".utf8) + [0xFF] + Array(".jpg".utf8))

    /// A trashed item as the trash would describe it (its initialiser is the trash's own).
    static func trashItem(_ original: String, _ trashed: String, _ info: String) -> TrashCan.Item {
        let json = try! JSONEncoder().encode(["originalPath": original, "trashedPath": trashed, "infoPath": info])
        return try! JSONDecoder().decode(TrashCan.Item.self, from: json)
    }

    @Test func everyRequestComesBackAsSent() throws {
        let requests: [RemoteRequest] = [
            .hello(version: 7, software: "qlbrowse 0.1.0"), .cancel, .resolve(path: "photos"),
            .list(path: Self.oddPath), .probe(path: "/"), .item(path: Self.oddPath),
            .read(.init(path: Self.oddPath, offset: 1 << 33, length: 65536)), .write(path: Self.oddPath),
            .rename(.init(from: Self.oddPath, to: "/srv/b")), .make(.init(path: "/srv/new", folder: true)), .trash(path: Self.oddPath),
            .restore(Self.trashItem(Self.oddPath, "/t/files/x", "/t/info/x.trashinfo")),
            .capabilities(.init(folder: "/srv", trial: true)),
            .thumbnail(.init(path: Self.oddPath, modified: 1_700_000_000, size: 123_456, box: 128, scale: 2, types: [.lowQuality, .thumbnail], checksVersion: true)),
            .text(.init(path: Self.oddPath, first: 1 << 40, count: 50)),
            .preview(.mediaFacts(path: Self.oddPath)),
            .perform(.init(kind: .copy, sources: [Self.oddPath], destination: "/srv", verifiesContent: true)),
            .choose(choice: .keepBoth, applyToAll: true), .pause(true),
            .append(.init(path: Self.oddPath, offset: 1 << 33, last: true)),
            .batch(.init(roots: [Self.oddPath], box: PixelSize(width: 256, height: 256), jobs: 2, shard: [1, 3], writesShared: true, ignoresStored: false)),
            .watch(path: Self.oddPath),
            .find(.init(path: Self.oddPath, showsHidden: true, query: "caf\u{E9}")), .findQuery(""),
            .find(.init(path: "/", showsHidden: false, query: "a", best: 3, streams: true)),
            .findInside(.init(path: Self.oddPath, query: "caf\u{E9}", limit: 200)),
        ]
        for (index, request) in requests.enumerated() {
            let frame = RemoteCodec.frame(request, id: UInt64(index) << 40, payload: index == 7 ? [1, 2, 3] : [])
            let read = try #require(try FrameCodec.readAll(frame.bytes))
            #expect(read.id == UInt64(index) << 40)
            #expect(try RemoteCodec.request(in: read) == request)
            #expect(read.payload == (index == 7 ? [1, 2, 3] : []))
        }
        // The path's bytes survive, not a repaired text.
        guard case .list(let path) = try RemoteCodec.request(in: RemoteCodec.frame(.list(path: Self.oddPath), id: 1)) else { Issue.record(); return }
        #expect(path.fileSystemBytes == Self.oddPath.fileSystemBytes)
    }

    @Test func everyAnswerComesBackAsSent() throws {
        let item = RemoteItem(PlaceItem(path: Self.oddPath, isDirectory: false, isSymbolicLink: true, isRegularFile: true, size: 9, modified: 10))
        let capabilities = RemoteCapabilities(VolumeCapabilities(isReadOnly: true, nameMax: 255, isCaseInsensitive: nil, supportsSymlinks: false,
                                                                 maximumFileSize: 4_294_967_295, forbiddenCharacters: Array("\\:*?")))
        let answers: [RemoteAnswer] = [
            .hello(version: 1, software: "x"), .resolved(path: Self.oddPath, item: item), .entries(complete: false), .entries(complete: true),
            .item(item), .bytes, .done, .stamp(nil), .trashed(Self.trashItem("/a", "/b", "/c")),
            .restored(path: "/a (2)"), .capabilities(capabilities),
            .thumbnail(.init(type: .thumbnail, source: "vips", contentType: ContentType("image/jpeg"), facts: [])),
            .failure(RemoteFailure(FileSystemError(errno: ENOENT, call: "lstat", path: Self.oddPath))),
            .changes(count: 2, relist: false, gone: false), .changes(count: 0, relist: true, gone: true),
            .failure(RemoteFailure(ThumbnailError(.noPreview, "no preview"))),
            .text(first: 7, count: 2, total: nil),
            .preview(answer: .page(.init(size: PixelSize(width: 2, height: 3), index: 1, pageCount: 9)), png: true),
            .progress(FileOperation.Progress(bytesDone: 5, bytesTotal: 1 << 40, itemsDone: 1, itemsTotal: 2, current: Self.oddPath)),
            .conflict(FileOperation.Conflict(source: Self.oddPath, destination: "/b", destinationIsFolder: true)),
            .report(Self.report),
            .batch(events: [.found(total: 3), .unlisted(folder: Self.oddPath, reason: "gone"), .cached(path: "/a")], ended: false),
            .found(FileFinder.Report(query: "a", best: [String(Self.oddPath.dropFirst()), "b/c"], matched: 9, walked: 1 << 33, complete: false, unreadable: 2)),
            .foundInside(FileFinder.Report(query: "a", best: [String(Self.oddPath.dropFirst())], matched: 3, walked: 0, complete: true, unreadable: 0)),
        ]
        for answer in answers {
            let read = try #require(try FrameCodec.readAll(RemoteCodec.frame(answer, id: 5, payload: [9]).bytes))
            #expect(try RemoteCodec.answer(in: read) == answer)
        }
        #expect(capabilities.capabilities.forbiddenCharacters == Array("\\:*?"))
        // A search's report ends nothing: its request runs until its cancel.
        #expect(!RemoteAnswer.found(FileFinder.Report(query: "", best: [], matched: 0, walked: 0, complete: true, unreadable: 0)).endsRequest)
        // A search inside files ends with its complete report (ripgrep is done there).
        #expect(RemoteAnswer.foundInside(FileFinder.Report(query: "", best: [], matched: 0, walked: 0, complete: true, unreadable: 0)).endsRequest)
        #expect(!RemoteAnswer.foundInside(FileFinder.Report(query: "", best: [], matched: 0, walked: 0, complete: false, unreadable: 0)).endsRequest)
        // A match's bytes survive, not a repaired text.
        let report = FileFinder.Report(query: "", best: [Self.oddPath], matched: 1, walked: 1, complete: true, unreadable: 0)
        guard case .found(let read) = try RemoteCodec.answer(in: try #require(try FrameCodec.readAll(RemoteCodec.frame(.found(report), id: 1).bytes)))
        else { Issue.record(); return }
        #expect(read.best.map(\.fileSystemBytes) == [Self.oddPath.fileSystemBytes])
        #expect(!RemoteAnswer.entries(complete: false).endsRequest)
        #expect(RemoteAnswer.entries(complete: true).endsRequest && RemoteAnswer.bytes.endsRequest)
        #expect(!RemoteAnswer.progress(.init()).endsRequest && !RemoteAnswer.batch(events: [], ended: false).endsRequest)
        #expect(RemoteAnswer.report(.init()).endsRequest && RemoteAnswer.batch(events: [], ended: true).endsRequest)
    }

    static var report: FileOperation.Report {
        var report = FileOperation.Report()
        report.done = [oddPath]
        report.notDone = ["/b"]
        report.failures = ["b: gone"]
        report.leftovers = ["/srv/.b.qlbrowse-1-2.part"]
        report.trashed = [trashItem("/a", "/t/a", "/t/a.info")]
        report.placed = [FileOperation.Placement(source: oddPath, target: "/srv/x", sameVolume: false)]
        report.cancelled = true
        return report
    }

    @Test func failuresKeepTheirMeaning() {
        let missing = RemoteFailure(FileSystemError(errno: ENOENT, call: "lstat", path: "/x")).fileSystemError
        #expect(missing.code == .notFound && missing.errno == ENOENT && missing.call == "lstat")
        let gone = RemoteFailure(FileSystemError(code: .volumeGone, path: "/mnt")).fileSystemError
        #expect(gone.code == .volumeGone)
        #expect(RemoteFailure(ThumbnailError(.encrypted, "locked")).thumbnailError.code == .encrypted)
        #expect(RemoteFailure(FileSystemError.cancelled).thumbnailError.code == .cancelled)
    }

    @Test func listingsCrossPackedAndWhole() throws {
        let odd: [UInt8] = [0x61, 0xFF, 0x2E, 0x6A, 0x70, 0x67]
        let entries = [
            Entry(nameBytes: odd, isDirectory: false, size: 1 << 40, modified: -5),
            Entry(nameBytes: Array("album".utf8), isDirectory: true, size: 0, modified: 1_700_000_000),
            Entry(nameBytes: Array("link.png".utf8), isDirectory: false, isSymbolicLink: true, size: 3, modified: 4),
            Entry(nameBytes: [UInt8](repeating: 0x62, count: 255), isDirectory: false, size: 1, modified: 2),
        ]
        let bytes = RemoteListing.pack(EntryStore(entries))
        let back = try #require(RemoteListing.unpack(bytes))
        #expect(back.handles.map(back.entry) == entries)
        #expect(RemoteListing.unpack([]).map(\.count) == 0)
        // Cut anywhere inside, it is refused rather than read as other entries.
        for cut in [1, 18, 19, bytes.count - 1] { #expect(RemoteListing.unpack(Array(bytes[..<cut])) == nil) }
    }

    @Test func theHelloIsReadWhateverElseAVersionSays() throws {
        let newer = WorkerFrame(id: 0, header: Array(#"{"hello":{"version":9,"software":"qlbrowse 9","features":["x"]}}"#.utf8))
        #expect(RemoteCodec.hello(in: newer) == RemoteHello(version: 9, software: "qlbrowse 9"))
        #expect(RemoteCodec.hello(in: RemoteCodec.frame(.list(path: "/"), id: 0)) == nil)
        let unknown = WorkerFrame(id: 3, header: Array(#"{"teleport":{"path":"/"}}"#.utf8))
        #expect(throws: WorkerCodecError.self) { try RemoteCodec.request(in: unknown) }
    }

    @Test func addressesAreParsedAsSshAndScpTakeThem() {
        #expect(RemoteAddress.parse("ssh://ann@nas:2222/photos/2024") == RemoteAddress(destination: "ann@nas", host: "nas", port: 2222, path: "/photos/2024"))
        #expect(RemoteAddress.parse("ssh://nas") == RemoteAddress(destination: "nas", host: "nas", port: nil, path: ""))
        #expect(RemoteAddress.parse("ssh://nas/~/pics")?.path == "pics")
        #expect(RemoteAddress.parse("ssh://[::1]:22/x") == RemoteAddress(destination: "::1", host: "::1", port: 22, path: "/x"))
        #expect(RemoteAddress.parse("nas:photos") == RemoteAddress(destination: "nas", host: "nas", port: nil, path: "photos"))
        #expect(RemoteAddress.parse("ann@nas:/srv") == RemoteAddress(destination: "ann@nas", host: "nas", port: nil, path: "/srv"))
        for local in ["photos", "./a:b", "/srv/a:b", "", ":x"] { #expect(RemoteAddress.parse(local) == nil, "\(local)") }
        // A host ssh would read as an option is refused.
        #expect(RemoteAddress.parse("-oProxyCommand=touch /tmp/x:y") == nil)
        #expect(RemoteAddress.parse("ssh://-oProxyCommand=x/y") == nil)
        #expect(RemoteAddress.parse("ssh://nas:0/x") == nil)
    }

    @Test func theCommandLineIsTheUsersSsh() {
        let address = RemoteAddress(destination: "ann@nas", host: "nas", port: 2222, path: "/x")
        #expect(RemoteCommand().arguments(for: address) == ["ssh", "-p", "2222", "ann@nas", "qlbrowse serve --stdio"])
        #expect(RemoteCommand().arguments(for: address, reconnecting: true).prefix(3) == ["ssh", "-o", "BatchMode=yes"])
        let custom = RemoteCommand(sshCommand: "ssh -F /tmp/cfg", remoteCommand: "/opt/qlbrowse")
        #expect(custom.arguments(for: address, reconnecting: true) == ["/bin/sh", "-c", "ssh -F /tmp/cfg \"$@\"", "ssh -F /tmp/cfg", "-p", "2222", "ann@nas", "/opt/qlbrowse serve --stdio"])
    }

    /// ssh's keep-alive goes after the user's own options (ssh takes the first value it gets),
    /// before ours for a reconnection; ssh -G is asked through the same command line.
    @Test func theKeepAliveComesAfterTheUsersOptionsAndTheQueryIsTheSameSsh() {
        let address = RemoteAddress(destination: "ann@nas", host: "nas", port: 2222, path: "/x")
        let keepAlive = ["-o", "ServerAliveInterval=15"]
        #expect(RemoteCommand().arguments(for: address, reconnecting: true, options: keepAlive)
                == ["ssh", "-o", "ServerAliveInterval=15", "-o", "BatchMode=yes", "-p", "2222", "ann@nas", "qlbrowse serve --stdio"])
        let custom = RemoteCommand(sshCommand: "ssh -o ServerAliveInterval=2", remoteCommand: "/opt/qlbrowse")
        #expect(custom.arguments(for: address, options: keepAlive).prefix(6)
                == ["/bin/sh", "-c", "ssh -o ServerAliveInterval=2 \"$@\"", "ssh -o ServerAliveInterval=2", "-o", "ServerAliveInterval=15"])
        #expect(RemoteCommand().configQuery(for: address) == ["ssh", "-G", "-p", "2222", "ann@nas"])
        #expect(custom.configQuery(for: address) == ["/bin/sh", "-c", "ssh -o ServerAliveInterval=2 \"$@\"", "ssh -o ServerAliveInterval=2", "-G", "-p", "2222", "ann@nas"])
    }
}

extension FrameCodec {
    /// One frame read back from its bytes, through a pipe as on the link.
    static func readAll(_ bytes: [UInt8]) throws -> WorkerFrame? {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        defer { close(fds[0]) }
        _ = FileDescriptorWriter.writeAll(bytes, to: fds[1])
        close(fds[1])
        return try read(from: fds[0])
    }
}
