import PropertyBased
import Testing
@testable import BrowserUI
import FileSystemKit
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Names are bytes: for generated trees of hostile names, each with its look-alike twin beside
/// it (`HostileNames`), every file operation, undo and redo, trash and restore, and bulk rename
/// changes exactly the files a model of the tree says, byte for byte, and leaves the twins alone.
@Suite(.serialized) struct HostileNamePropertyTests {
    private typealias Tree = [[UInt8]: [UInt8]]

    /// The tree as the kernel has it: each raw name with its content.
    private func tree(_ folder: String) -> Tree {
        var result: Tree = [:]
        for name in HostileNames.rawListing(folder) { result[name] = HostileNames.read(folder: folder, name: name) }
        return result
    }

    private func path(_ folder: String, _ name: [UInt8]) -> String { folder + "/" + String(fileSystemBytes: name) }

    private func run(_ kind: FileOperation.Kind, _ sources: [String], into destination: String?, trash: TrashCan?) -> FileOperation.Report {
        FileOperation(kind: kind, sources: sources, destination: destination)
            .run(trash: trash, resolve: { _ in (.skip, true) }, progress: { _ in })
    }

    @Test func everyOperationActsOnExactlyTheNamedBytes() async {
        await propertyCheck(count: 30, input: HostileNames.names) { names in
            let root = TemporaryFolder.make()
            defer { TemporaryFolder.remove(root) }
            let source = root + "/src", copies = root + "/copies", moved = root + "/moved"
            for folder in [source, copies, moved, root + "/data"] { mkdir(folder, 0o755) }
            for name in names { HostileNames.write(HostileNames.content(of: name), folder: source, name: name) }
            var model: Tree = [:]
            for name in names { model[name] = HostileNames.content(of: name) }
            #expect(tree(source) == model, "the test made its tree")

            // The listing carries every name as itself.
            #expect(Set(DirectoryEntries.list(source).map(\.name.fileSystemBytes)) == Set(names))
            let trash = TrashCan(dataHome: root + "/data", mountPoints: ["/"])
            let journal = UndoJournal(path: root + "/journal.json") { try? AtomicFileWriter.writeState($0, to: $1) }

            // Copy, undo (the copies go to the Trash), redo.
            let sources = names.map { path(source, $0) }
            let copy = run(.copy, sources, into: copies, trash: nil)
            #expect(copy.done.count == names.count && copy.failures.isEmpty, "copy: \(copy.summary) \(copy.failures.map(TerminalText.escaped))")
            #expect(tree(copies) == model && tree(source) == model)
            journal.record(UndoSteps.of(.copy, report: copy, destination: copies))
            #expect(journal.undo(trash: trash).succeeded)
            #expect(tree(copies).isEmpty && tree(source) == model)
            #expect(journal.redo(trash: trash).succeeded)
            #expect(tree(copies) == model)

            // Move (one rename each on this volume), undo, redo.
            let move = run(.move, names.map { path(copies, $0) }, into: moved, trash: nil)
            #expect(move.done.count == names.count, "move: \(move.summary) \(move.failures.map(TerminalText.escaped))")
            #expect(tree(moved) == model && tree(copies).isEmpty)
            journal.record(UndoSteps.of(.move, report: move, destination: moved))
            #expect(journal.undo(trash: trash).succeeded)
            #expect(tree(copies) == model && tree(moved).isEmpty)
            #expect(journal.redo(trash: trash).succeeded)
            #expect(tree(moved) == model)

            // Trash the first name only: its twins stay; the trash info names its bytes; restore.
            let first = names[0]
            let trashed = run(.trash, [path(moved, first)], into: nil, trash: trash)
            #expect(trashed.done.count == 1 && trashed.trashed.count == 1)
            var withoutFirst = model
            withoutFirst[first] = nil
            #expect(tree(moved) == withoutFirst, "only the named file left")
            if let item = trashed.trashed.first {
                let info = FileDescriptorReader.readFile(item.infoPath, upTo: 64 << 10) ?? []
                let expected = Array("Path=".utf8) + Array(FileURI.from(absolutePath: path(moved, first)).utf8.dropFirst("file://".count))
                #expect(info.firstRange(of: expected) != nil, "Path= is the percent-encoded bytes")
                #expect(HostileNames.read(folder: root + "/data/Trash/files", name: Array(item.trashedPath.fileSystemBytes.split(separator: 0x2F).last ?? [])) == model[first])
                journal.record(UndoSteps.of(.trash, report: trashed, destination: nil))
                #expect(journal.undo(trash: trash).succeeded)
                #expect(tree(moved) == model, "restored as itself")
            }

            // Bulk rename: each name as its editable line comes back as itself; a rotation of
            // all the names (every one taking the next one's name) is done together.
            for name in names { #expect(EditableName.decode(EditableName.encode(String(fileSystemBytes: name))).fileSystemBytes == name) }
            if names.count > 1 {
                let strings = names.map { String(fileSystemBytes: $0) }
                let rotated = Array(strings.dropFirst()) + [strings[0]]
                let plan = BulkRenamePlan(names: strings, edited: rotated, others: [], capabilities: nil)
                #expect(plan.problems.isEmpty, "\(plan.problems)")
                let renames = plan.changes.compactMap { change in
                    PathStamp.of(moved + "/" + change.from).map { UndoAction.Rename(from: moved + "/" + change.from, to: moved + "/" + change.to, expected: $0) }
                }
                #expect(renames.count == plan.changes.count, "every name to rename is there")
                if case .failure(let refusal) = UndoJournal.perform([.renames(renames)], trash: trash) { Issue.record("renames refused: \(refusal)") }
                var expected: Tree = [:]
                for (index, name) in names.enumerated() { expected[names[(index + 1) % names.count]] = model[name] }
                #expect(tree(moved) == expected, "each content under the next name")
            }
        }
    }
}
