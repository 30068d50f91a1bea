import Testing
import FileSystemKit
import ThumbnailKit

@Suite struct EntryStoreTests {
    private func names(_ store: EntryStore, _ order: [EntryHandle]) -> [String] {
        order.map { store.entry($0).name }
    }

    @Test func entriesComeBackAsTheyWentIn() {
        let bytes: [UInt8] = Array("bad\u{1B}".utf8) + [0xFF]
        let store = EntryStore([Entry(nameBytes: bytes, isDirectory: false, isSymbolicLink: true, size: 1234, modified: 99),
                                Entry(name: "Photos", isDirectory: true), Entry(name: "clip.MP4")])
        #expect(store.count == 3)
        let handles = store.handles
        #expect(store.entry(handles[0]).nameBytes == bytes && store.entry(handles[0]).isSymbolicLink && store.entry(handles[0]).size == 1234 && store.entry(handles[0]).modified == 99)
        #expect(store.entry(handles[1]).isDirectory && store.entry(handles[1]).kind == .folder)
        #expect(store.entry(handles[2]).kind == .video)
    }

    @Test func nonASCIINamesSortAndFilterWithoutRegardToCase() {
        let store = EntryStore(["Zebra", "élan", "Éclair", "apple", "Ölfarbe", "ölkanne"].map { Entry(name: $0) })
        var order = store.shownHandles(inChunks: 0..<store.chunkCount, showHidden: true, needle: [])
        store.sort(&order, by: .name)
        #expect(names(store, order) == ["apple", "Zebra", "Éclair", "élan", "Ölfarbe", "ölkanne"])
        let matches = store.shownHandles(inChunks: 0..<store.chunkCount, showHidden: true, needle: Array("öl".utf8))
        #expect(names(store, matches) == ["Ölfarbe", "ölkanne"])
        let ascii = store.shownHandles(inChunks: 0..<store.chunkCount, showHidden: true, needle: Array("ZEB".lowercased().utf8))
        #expect(names(store, ascii) == ["Zebra"])
    }

    @Test func kindOrderGroupsByKindThenExtension() {
        let store = EntryStore(["b.png", "a.txt", "c.jpg", "d.PNG", "docs"].map { Entry(name: $0, isDirectory: $0 == "docs") })
        var order = store.shownHandles(inChunks: 0..<store.chunkCount, showHidden: true, needle: [])
        store.sort(&order, by: .kind)
        #expect(names(store, order) == ["docs", "c.jpg", "b.png", "d.PNG", "a.txt"])
        #expect(store.folderCount(in: order) == 1)
    }

    @Test func storesJoinKeepingTheirNames() {
        var first = EntryStore(["one", "two"].map { Entry(name: $0) })
        first.append(contentsOf: EntryStore(["three", "vier-ü"].map { Entry(name: $0) }))
        #expect(names(first, first.handles) == ["one", "two", "three", "vier-ü"])
        #expect(first.position(of: Array("three".utf8), in: first.handles) == 2)
    }

    @Test func manySmallAppendsRepackWithoutLosingAnEntry() {
        var store = EntryStore()
        var repacked = false
        for index in 0..<(EntryStore.maximumChunks + 10) {
            repacked = store.append(contentsOf: EntryStore([Entry(name: "n\(index)")])) || repacked
        }
        #expect(repacked && store.chunkCount <= 10)
        var order = store.handles
        store.sort(&order, by: .name)
        #expect(order.count == EntryStore.maximumChunks + 10)
        #expect(store.entry(order[0]).name == "n0" && store.entry(order[order.count - 1]).name == "n\(EntryStore.maximumChunks + 9)")
    }
}
