import Foundation
import Testing
import ThumbnailKit

/// Previews over ../shared/corpus (read-only; every file, broken ones included, opened only by the
/// worker): every archive listed, page 2 of every PDF rendered. Prints one line per file.
@Suite(.serialized) struct PreviewCorpusTests {
    static let corpus = ProcessInfo.processInfo.environment["QLBROWSE_CORPUS"].map { URL(fileURLWithPath: $0) }
        ?? TestEnvironment.root.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static let archiveExtensions: Set<String> = ["zip", "epub", "cbz", "cbr", "cbt", "cb7", "odt", "ods", "odp", "docx", "xlsx",
                                                 "pptx", "3mf", "kra", "ora", "tar", "tgz", "txz", "7z", "rar", "deb", "iso", "jar"]

    /// (path relative to the corpus, MIME type, expect) for each row of MANIFEST.tsv.
    static func manifest() -> [(path: String, type: String, expect: String)] {
        let text = (try? String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return columns.count > 7 ? (columns[0], columns[2], columns[7]) : nil
        }
    }

    private func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, ThumbnailError> {
        do { return .success(try await body()) } catch let error as ThumbnailError { return .failure(error) } catch {
            return .failure(ThumbnailError(.cancelled, "\(error)"))
        }
    }

    @Test func everyArchiveInTheCorpusLists() async throws {
        let files = Self.manifest().filter { Self.archiveExtensions.contains(($0.path as NSString).pathExtension.lowercased()) || $0.type == "application/zip" }
        guard !files.isEmpty else { return }  // no corpus here
        let pool = WorkerPool(size: 2, executable: TestEnvironment.thumbnailer)
        let previews = PreviewGenerator(pool: pool)
        var failures: [String] = []
        for file in files {
            let path = Self.corpus.appendingPathComponent(file.path).path
            switch await outcome({ try await previews.members(path: path) }) {
            case .success(let listing):
                print("corpus members \(file.path): \(listing.members.count) members, \(listing.format ?? "?")\(listing.note.map { "; \($0)" } ?? "")")
                if listing.truncated && !file.path.hasPrefix("broken/") { failures.append(file.path) }
            case .failure(let error):
                print("corpus members \(file.path): \(error.code): \(error.reason)")
                if !file.path.hasPrefix("broken/") || [.crashed, .timedOut].contains(error.code) { failures.append(file.path) }
            }
        }
        await pool.shutdown()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func pageTwoOfEveryPDFInTheCorpus() async throws {
        let files = Self.manifest().filter { $0.type == "application/pdf" || $0.path.lowercased().hasSuffix(".pdf") }
        guard !files.isEmpty else { return }
        let pool = WorkerPool(size: 2, executable: TestEnvironment.thumbnailer)
        let previews = PreviewGenerator(pool: pool)
        var failures: [String] = []
        for file in files {
            let path = Self.corpus.appendingPathComponent(file.path).path
            let clock = ContinuousClock()
            let start = clock.now
            let result = await outcome { try await previews.page(path: path, index: 1, box: PixelSize(width: 1400, height: 900)) }
            let took = clock.now - start
            switch result {
            case .success(let page):
                print("corpus page \(file.path): page \(page.index + 1)/\(page.pageCount) \(page.image.size) in \(took)")
            case .failure(let error):
                print("corpus page \(file.path): \(error.code): \(error.reason)")
                // The manifest's `expect` is about thumbnails (page 1); "either" files may fail here too.
                if file.expect == "ok" && error.code != .encrypted || [.crashed, .timedOut].contains(error.code) { failures.append(file.path) }
            }
        }
        await pool.shutdown()
        #expect(failures.isEmpty, "\(failures)")
    }
}
