import Foundation
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Custom previewers (`.previewer` files) through the real worker and `qlbrowse types`: a user's
/// `$XDG_CONFIG_HOME/qlbrowse/previewers` in a temporary folder, types of its own registered in a
/// temporary `$XDG_DATA_HOME/mime`, and a worker wrapper that sees that environment.
@Suite(.serialized) struct CustomPreviewerTests {
    /// The temporary configuration, the fake previewers' scripts and the files to preview.
    final class Setup {
        let folder: URL
        let environment: [String: String]
        let worker: String
        /// A `sleep` argument no other process has, to prove the hanging previewer was killed.
        let marker = String(900_000 + Int.random(in: 0..<99_999))

        init() throws {
            folder = TestEnvironment.temporaryFolder("qlbrowse-previewers")
            environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
            worker = folder.appendingPathComponent("worker").path
            let exports = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
            try write("worker", "#!/bin/sh\nexport \(exports)\nexec '\(TestEnvironment.thumbnailer)' \"$@\"\n", executable: true)
            // Types of our own, by name: a subclass of the text previewer's type must not get it.
            try write("data/mime/globs2", ["test:qlbt", "sub:qlbs", "image:qlbi", "hang:qlbh", "raw:qlbr", "absent:qlba"]
                .map { "50:application/x-qlbrowse-\($0.split(separator: ":")[0]):*.\($0.split(separator: ":")[1])\n" }.joined())
            try write("data/mime/subclasses", "application/x-qlbrowse-sub application/x-qlbrowse-test\n")
            let bin = folder.appendingPathComponent("bin").path
            try write("bin/coloured", #"#!/bin/sh\#nprintf '\033[1;32m%s\033[0m %sx%s\n' "$(cat "$1")" "$2" "$3"\#n"#, executable: true)
            try write("bin/picture", "#!/bin/sh\nexec convert -size 400x200 'xc:rgb(10,200,30)' \"png:$1\"\n", executable: true)
            try write("bin/hang", "#!/bin/sh\nexec sleep \(marker)\n", executable: true)
            try write("bin/raw", #"#!/bin/sh\#nprintf 'ok\033]52;c;aGk=\007\033[2J\377\376\n'\#n"#, executable: true)
            try write("config/qlbrowse/previewers/coloured.previewer", """
                [Previewer Entry]
                Exec="\(bin)/coloured" %i %c %r
                MimeType=application/x-qlbrowse-test;
                Override=true
                """)
            try write("config/qlbrowse/previewers/picture.previewer",
                      "[Previewer Entry]\nExec=\"\(bin)/picture\" %o\nMimeType=application/x-qlbrowse-image;\nOutput=image\n")
            try write("config/qlbrowse/previewers/hang.previewer", "[Previewer Entry]\nExec=\"\(bin)/hang\" %i\nMimeType=application/x-qlbrowse-hang;\n")
            try write("config/qlbrowse/previewers/raw.previewer", "[Previewer Entry]\nExec=\"\(bin)/raw\" %i\nMimeType=application/x-qlbrowse-raw;\n")
            try write("config/qlbrowse/previewers/absent.previewer",
                      "[Previewer Entry]\nTryExec=qlbrowse-no-such-previewer\nExec=\"\(bin)/raw\" %i\nMimeType=application/x-qlbrowse-absent;\n")
            for name in ["file.qlbt", "file.qlbs", "file.qlbi", "file.qlbh", "file.qlbr", "file.qlba"] { try write(name, "QLBT") }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// Writes through a close-on-exec descriptor (`TestEnvironment.writeFile`): a process
        /// another test starts meanwhile must not inherit it (ETXTBSY on the script).
        func write(_ relative: String, _ text: String, executable: Bool = false) throws {
            let full = path(relative)
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try TestEnvironment.writeFile(text, to: full, executable: executable)
        }
    }

    private func withPreviews<T>(_ setup: Setup, deadline: Double = 10, _ body: (PreviewGenerator, WorkerPool) async throws -> T) async throws -> T {
        let pool = WorkerPool(size: 1, executable: setup.worker, limits: WorkerLimits(deadlineSeconds: deadline))
        defer { Task { await pool.shutdown() } }
        return try await body(PreviewGenerator(pool: pool), pool)
    }

    private let box = PixelSize(width: 200, height: 200)

    @Test func aTextPreviewerIsUsedForItsExactTypeOnly() async throws {
        let setup = try Setup()
        try await withPreviews(setup) { previews, _ in
            let info = try #require(try await previews.customPreviewer(for: setup.path("file.qlbt")))
            #expect(info.name == "coloured" && info.mimeType == "application/x-qlbrowse-test" && info.output == .text && info.overridesBuiltIn)
            #expect(info.path == setup.path("config/qlbrowse/previewers/coloured.previewer"))
            let preview = try #require(try await previews.custom(path: setup.path("file.qlbt"), box: box, columns: 120, rows: 40))
            #expect(preview.content == .text(Array("\u{1B}[1;32mQLBT\u{1B}[0m 120x40\n".utf8)))
            #expect(preview.previewer == info && !preview.truncated)
            // A subclass of its type, and a file nothing previews: no previewer, the built-in view stays.
            #expect(try await previews.customPreviewer(for: setup.path("file.qlbs")) == nil)
            #expect(try await previews.custom(path: setup.path("file.qlbs"), box: box, columns: 80, rows: 24) == nil)
            #expect(try await previews.custom(path: TestEnvironment.fixtures.appendingPathComponent("doc.pdf").path, box: box, columns: 80, rows: 24) == nil)
        }
    }

    @Test func anImagePreviewerIsDecodedAndFittedIntoTheBox() async throws {
        let setup = try Setup()
        try await withPreviews(setup) { previews, _ in
            let preview = try #require(try await previews.custom(path: setup.path("file.qlbi"), box: box, columns: 80, rows: 24))
            #expect(preview.previewer.name == "picture" && preview.previewer.output == .image && !preview.previewer.overridesBuiltIn)
            guard case .image(let image) = preview.content else { Issue.record("not a picture: \(preview.content)"); return }
            #expect(image.size == PixelSize(width: 200, height: 100))
            #expect(image.pixel(x: 100, y: 50) == RGBA(10, 200, 30))
        }
    }

    @Test func escapeSequencesAndInvalidUTF8AreReturnedAsBytesForTheBrowserToEscape() async throws {
        let setup = try Setup()
        try await withPreviews(setup) { previews, _ in
            let preview = try #require(try await previews.custom(path: setup.path("file.qlbr"), box: box, columns: 80, rows: 24))
            #expect(preview.content == .text(Array("ok\u{1B}]52;c;aGk=\u{07}\u{1B}[2J".utf8) + [0xFF, 0xFE, 0x0A]))
        }
    }

    @Test func aPreviewerWhoseTryExecIsMissingIsSkipped() async throws {
        let setup = try Setup()
        try await withPreviews(setup) { previews, _ in
            let info = try await previews.customPreviewer(for: setup.path("file.qlba"))
            let preview = try await previews.custom(path: setup.path("file.qlba"), box: box, columns: 80, rows: 24)
            #expect(info == nil && preview == nil)
        }
    }

    /// The processes running `sleep` with this setup's marker: the hanging previewer's.
    private static func hangingPreviewers(marker: String) -> Set<String> {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { pid in
            guard pid.allSatisfy(\.isNumber), let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == marker }
        }
        return Set(pids ?? [])
    }

    @Test func aHangingPreviewerCostsOnlyItsRequest() async throws {
        let setup = try Setup()
        try await withPreviews(setup, deadline: 3) { previews, pool in
            // Counted, not timed (a 6 s clock was missed on a loaded CI): each start is a new
            // process, alive until the worker's deadline, so polling sees every one.
            let marker = setup.marker
            let watcher = Task { () -> Set<String> in
                var seen = Set<String>()
                while !Task.isCancelled {
                    seen.formUnion(Self.hangingPreviewers(marker: marker))
                    try? await Task.sleep(for: .milliseconds(50))
                }
                return seen
            }
            do {
                _ = try await previews.custom(path: setup.path("file.qlbh"), box: box, columns: 80, rows: 24)
                Issue.record("a hanging previewer returned")
            } catch let error as ThumbnailError {
                // The worker stops it half a second before the pool's deadline (2.5 s, less the
                // worker's start on a busy machine) and lives on.
                #expect(error.code == .timedOut && error.reason.hasPrefix("hang took longer than "), "\(error)")
            }
            watcher.cancel()
            #expect(await watcher.value.count == 1, "one start, one deadline, not several")
            let next = try await previews.custom(path: setup.path("file.qlbt"), box: box, columns: 10, rows: 5)
            #expect(next?.content == .text(Array("\u{1B}[1;32mQLBT\u{1B}[0m 10x5\n".utf8)))
            #expect(await pool.replacedWorkers == 0)
        }
        let left = Self.hangingPreviewers(marker: setup.marker)
        #expect(left.isEmpty, "a `sleep \(setup.marker)` process is left behind")
    }

    @Test func typesListsThePreviewers() throws {
        let setup = try Setup()
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["types"], environment: setup.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let section = result.stdout.components(separatedBy: "Custom previewers (Quick Look):\n").last ?? ""
        let rows = section.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.first == ["TYPE", "PREVIEWER", "OUTPUT", "OVERRIDES", "BUILT-IN", "FROM"])
        #expect(rows.contains(["application/x-qlbrowse-test", "coloured", "text", "yes", setup.path("config/qlbrowse/previewers/coloured.previewer")]))
        #expect(rows.contains(["application/x-qlbrowse-image", "picture", "image", "no", setup.path("config/qlbrowse/previewers/picture.previewer")]))
        #expect(!result.stdout.contains("x-qlbrowse-absent"))
        let tsv = TestEnvironment.run(TestEnvironment.qlbrowse, ["types", "--tsv"], environment: setup.environment)
        #expect(tsv.stdout.split(separator: "\n").contains(
            "application/x-qlbrowse-test\tcoloured\t\(setup.path("config/qlbrowse/previewers/coloured.previewer"))\ttext\toverride"))
    }
}
