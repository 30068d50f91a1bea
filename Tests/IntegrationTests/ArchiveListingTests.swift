import Foundation
import Testing
import ThumbnailKit

/// Archive members listed by the worker through libarchive, headers only.
@Suite(.serialized) struct ArchiveListingTests {
    private func fixture(_ name: String) -> String { TestEnvironment.fixtures.appendingPathComponent(name).path }

    private func list(_ name: String, limit: Int = 10_000) async throws -> ArchiveListing {
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer)
        defer { Task { await pool.shutdown() } }
        return try await PreviewGenerator(pool: pool).members(path: fixture(name), limit: limit)
    }

    /// What make-fixtures.sh put in every format, folders without their trailing slash.
    private let tree: Set<String> = ["readme.txt", "docs", "docs/notes.md", "pics", "pics/landscape.jpg", "link", "empty"]

    @Test(arguments: ["members.zip", "members.tar.xz", "members.7z"])
    func theMembersAreTheFilesPutIn(_ name: String) async throws {
        guard FileManager.default.fileExists(atPath: fixture(name)) else { return }  // no bsdtar for the 7z
        let listing = try await list(name)
        let paths = listing.members.map { $0.path.hasSuffix("/") ? String($0.path.dropLast()) : $0.path }
        #expect(Set(paths) == tree, "\(name): \(paths)")
        #expect(paths.count == tree.count)
        #expect(!listing.truncated && listing.note == nil, "\(listing.note ?? "")")
        #expect(listing.format != nil)
        let byPath = Dictionary(uniqueKeysWithValues: listing.members.map { ($0.path.hasSuffix("/") ? String($0.path.dropLast()) : $0.path, $0) })
        #expect(byPath["readme.txt"]?.size == 15)
        #expect(byPath["pics/landscape.jpg"]?.size == Int64((try? FileManager.default.attributesOfItem(atPath: fixture("landscape.jpg"))[.size] as? Int) ?? -1))
        #expect(byPath["docs"]?.isDirectory == true && byPath["empty"]?.isDirectory == true)
        #expect(byPath["link"]?.isSymlink == true && byPath["readme.txt"]?.isSymlink == false)
        // 2024-01-01 12:00 UTC; zip's DOS times are local, its extended timestamps are not.
        #expect(byPath["readme.txt"]?.modified == 1_704_110_400, "\(name): \(String(describing: byPath["readme.txt"]?.modified))")
    }

    @Test func moreMembersThanTheLimitAreCutWithANote() async throws {
        let listing = try await list("many-members.zip")
        #expect(listing.members.count == 10_000)
        #expect(listing.members.first?.path == "m/00000" && listing.members.last?.path == "m/09999")
        #expect(listing.truncated)
        #expect(listing.note == "showing the first 10,000 of 12,000 members", "\(listing.note ?? "")")
        let few = try await list("many-members.zip", limit: 5)
        #expect(few.members.count == 5 && few.truncated)
    }

    @Test func anArchiveBombIsListedWithANoteAndNotUnpacked() async throws {
        // One worker, started and warmed on a small archive first: what is timed is the listing,
        // not a worker's start, which takes seconds on a busy machine.
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer)
        defer { Task { await pool.shutdown() } }
        let generator = PreviewGenerator(pool: pool)
        _ = try await generator.members(path: fixture("members.zip"), limit: 10_000)
        let clock = ContinuousClock()
        let start = clock.now
        let listing = try await generator.members(path: fixture("zipbomb.cbz"), limit: 10_000)
        #expect(listing.members.map(\.path) == ["page01.jpg"])
        #expect(listing.members.first?.size == 1 << 30)
        #expect(listing.note?.contains("possibly an archive bomb") == true, "\(listing.note ?? "")")
        // The bomb is noticed from the headers, never unpacked (the note above says so; unpacking
        // would end at the memory limit with no listing). The time is a hang guard: with the whole
        // suite on two cores the answer once took 10 s to be read.
        #expect(clock.now - start < .seconds(30))
    }

    @Test func containersListToo() async throws {
        for name in ["book.epub", "comic.cbz", "doc.odt"] {
            let listing = try await list(name)
            #expect(listing.members.contains { $0.path == "mimetype" } || name == "comic.cbz", "\(name)")
            #expect(!listing.members.isEmpty && listing.note == nil, "\(name): \(listing.note ?? "")")
        }
    }

    @Test(arguments: ["truncated.zip", "truncated.tar.xz", "garbage.png", "empty.jpg"])
    func aDamagedArchiveOrANonArchiveGivesAClearAnswerNotACrash(_ name: String) async throws {
        do {
            let listing = try await list(name)
            print("\(name): \(listing.members.count) members, note: \(listing.note ?? "none")")
            // What could be read before the damage, said so; or an empty file, said so.
            #expect(listing.note != nil, "\(name) listed \(listing.members.count) members without a note")
        } catch let error as ThumbnailError {
            print("\(name): \(error.code): \(error.reason)")
            #expect([.corrupt, .unsupported].contains(error.code), "\(name): \(error.code) \(error.reason)")
            #expect(!error.reason.isEmpty)
        }
    }
}
