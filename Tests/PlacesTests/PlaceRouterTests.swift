import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The router's prefixes (`PlacePath`) and its dispatch, with a second local place standing in
/// for a remote one (the router does not care what a place is): names as bytes both ways, the
/// root of a remote, a local path that only looks like a prefix, copies and moves across.
@Suite struct PlaceRouterTests {
    /// `caf\xE9`: Latin-1, not UTF-8; then a combining accent right after a slash.
    static let oddName = String(fileSystemBytes: Array("caf".utf8) + [0xE9])
    static let prefix = "ssh://me@nas:2222"

    private let here: String
    private let there: String
    private let router: PlaceRouter

    init() {
        let root = NSTemporaryDirectory() + "qlbrowse-router-\(UUID().uuidString.prefix(8))"
        here = root + "/here"
        there = root + "/there"
        _ = mkdir(root, 0o755)
        _ = mkdir(here, 0o755)
        _ = mkdir(there, 0o755)
        router = PlaceRouter(local: LocalPlace(io: VolumeIO(), volumes: { [] }, dataHome: root + "/data-here"))
        router.add(LocalPlace(io: VolumeIO(), volumes: { [] }, dataHome: root + "/data-there"), under: Self.prefix, label: "remote:nas")
    }

    private func cleanUp() { try? FileManager.default.removeItem(atPath: (here as NSString).deletingLastPathComponent) }

    private func make(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = FileDescriptorWriter.writeAll(bytes, to: fd)
        close(fd)
    }

    private func contents(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var all: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return all }
            all += buffer[..<count]
        }
    }

    @Test func aRemotePathSplitsAndJoinsBackByteForByte() {
        let inner = "/photos/" + Self.oddName + "/\u{301}x"
        let path = PlacePath.join(Self.prefix, inner)
        #expect(path == Self.prefix + inner)
        let split = try! #require(PlacePath.split(path))
        #expect(split.prefix == Self.prefix)
        #expect(split.path.fileSystemBytes == inner.fileSystemBytes, "the name's bytes come back unchanged")
        #expect(PlacePath.join(split.prefix, split.path) == path)
        #expect(PlacePath.host(path) == "nas")
        #expect(PlacePath.prefix(destination: "me@nas", port: 2222) == Self.prefix)
        #expect(PlacePath.prefix(destination: "::1", port: 22) == "ssh://[::1]:22")
        #expect(PlacePath.host("ssh://[::1]:22/x") == "::1")
    }

    @Test func aRemoteRootIsTheBarePrefixAndHasNoParent() {
        #expect(PlacePath.join(Self.prefix, "/") == Self.prefix)
        #expect(PlacePath.split(Self.prefix)?.path == "/")
        #expect(PlacePath.isRoot(Self.prefix))
        #expect(!PlacePath.isRoot(Self.prefix + "/photos"))
        #expect(!PlacePath.isRoot("/"), "a local root is no remote's")
    }

    @Test func aLocalPathThatLooksLikeAPrefixStaysLocal() async throws {
        defer { cleanUp() }
        // A folder here named `ssh:`, with an empty name after it cannot be; `ssh:/x` is a folder.
        let lookalike = here + "/ssh:"
        _ = mkdir(lookalike, 0o755)
        make(lookalike + "/x", [1])
        #expect(PlacePath.isLocal(lookalike + "/x"))
        #expect(PlacePath.split(here + "/ssh://nas/x") == nil)
        let item = try await router.item(at: lookalike + "/x")
        #expect(item.path == lookalike + "/x" && item.size == 1)
        #expect(router.isThisComputer(lookalike + "/x"))
        #expect(!router.isThisComputer(Self.prefix + lookalike + "/x"))
        #expect(router.label(for: lookalike) == nil)
        #expect(router.label(for: Self.prefix + "/x") == "remote:nas")
    }

    @Test func listingsAndItemsOfARemoteComeBackUnderItsPrefix() async throws {
        defer { cleanUp() }
        make(there + "/" + Self.oddName, [1, 2, 3])
        let listed = try await router.entries(of: Self.prefix + there)
        #expect(listed.handles.map { listed.entry($0).nameBytes } == [Self.oddName.fileSystemBytes])
        let item = try await router.item(at: Self.prefix + there + "/" + Self.oddName)
        #expect(item.path == Self.prefix + there + "/" + Self.oddName && item.size == 3)
        let renamed = Self.prefix + there + "/renamed"
        _ = try await router.rename(Self.prefix + there + "/" + Self.oddName, to: renamed)
        #expect(contents(there + "/renamed") == [1, 2, 3])
        let trashed = try await router.trash(renamed)
        #expect(trashed.originalPath == renamed, "the trashed item names where it was, under the prefix")
        #expect(try await router.restore(trashed) == renamed)
        #expect(contents(there + "/renamed") == [1, 2, 3])
    }

    @Test func aPlaceNotConnectedIsGoneNotLocal() async {
        defer { cleanUp() }
        await #expect(throws: FileSystemError.self) { try await router.item(at: "ssh://other" + here) }
        #expect(await router.probe("ssh://other/") != nil)
    }

    @Test func aCopyBetweenPlacesArrivesWholeAndAMoveRemovesOnlyWhatWasCopied() async throws {
        defer { cleanUp() }
        let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        make(here + "/" + Self.oddName, big)
        let copy = FileOperation(kind: .copy, sources: [here + "/" + Self.oddName], destination: Self.prefix + there)
        let report = try await router.perform(copy, events: FileOperationEvents())
        #expect(report.done == [here + "/" + Self.oddName])
        #expect(report.placed.map(\.target) == [Self.prefix + there + "/" + Self.oddName])
        #expect(contents(there + "/" + Self.oddName) == big, "the bytes arrived")
        // Back, as a move: one source copies, one is skipped (its name is taken): only the first goes.
        make(there + "/kept", [9])
        make(here + "/kept", [8])
        let move = FileOperation(kind: .move, sources: [Self.prefix + there + "/" + Self.oddName, Self.prefix + there + "/kept"], destination: here + "/sub")
        _ = mkdir(here + "/sub", 0o755)
        make(here + "/sub/kept", [7])
        let moved = try await router.perform(move, events: FileOperationEvents(resolve: { _ in (.skip, false) }))
        #expect(moved.done == [Self.prefix + there + "/" + Self.oddName])
        #expect(moved.skipped == [Self.prefix + there + "/kept"])
        #expect(contents(here + "/sub/" + Self.oddName) == big)
        #expect(contents(there + "/" + Self.oddName) == nil, "the moved source is gone")
        let root = (here as NSString).deletingLastPathComponent
        #expect(contents(root + "/data-there/Trash/files/" + Self.oddName) == big, "into its own place's trash (undoable)")
        #expect(moved.trashed.map(\.originalPath) == [Self.prefix + there + "/" + Self.oddName], "\(moved.trashed)")
        #expect(contents(there + "/kept") == [9], "the skipped one stays where it was")
        #expect(contents(here + "/sub/kept") == [7])
    }

    @Test func aCopyBetweenTwoRemotesGoesFromOneToTheOther() async throws {
        defer { cleanUp() }
        let other = "ssh://[::1]:22"
        let third = (here as NSString).deletingLastPathComponent + "/third"
        _ = mkdir(third, 0o755)
        router.add(LocalPlace(io: VolumeIO(), volumes: { [] }, dataHome: third + "-data"), under: other, label: nil)
        make(there + "/" + Self.oddName, [4, 5, 6])
        let copy = FileOperation(kind: .copy, sources: [Self.prefix + there + "/" + Self.oddName], destination: other + third)
        let report = try await router.perform(copy, events: FileOperationEvents())
        #expect(report.placed.map(\.target) == [other + third + "/" + Self.oddName])
        #expect(contents(third + "/" + Self.oddName) == [4, 5, 6])
        #expect(router.label(for: other + "/x") == "remote:::1", "a remote added without a label is named by its host")
    }
}
