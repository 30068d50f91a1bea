import Testing
@testable import BrowserCore
@testable import BrowserUI
import ThumbnailKit

@Suite struct ArchiveTreeTests {
    @Test func membersBecomeATreeWithTheirFoldersFirst() {
        let members = [
            ArchiveMember(path: "src/b.swift", size: 20, modified: 0, isDirectory: false, isSymlink: false),
            ArchiveMember(path: "README", size: 5, modified: 0, isDirectory: false, isSymlink: false),
            ArchiveMember(path: "src/a10.swift", size: 10, modified: 0, isDirectory: false, isSymlink: false),
            ArchiveMember(path: "src/a2.swift", size: 10, modified: 0, isDirectory: false, isSymlink: false),
            ArchiveMember(path: "docs/", size: 0, modified: 0, isDirectory: true, isSymlink: false),
            ArchiveMember(path: "./evil\u{1B}[2J", size: 1, modified: 0, isDirectory: false, isSymlink: true),
        ]
        let rows = ArchiveTree.rows(members)
        #expect(rows.map { String(repeating: " ", count: $0.depth) + $0.name } == ["docs", "src", " a2.swift", " a10.swift", " b.swift", "evil\\e[2J", "README"])
        #expect(rows[1].isDirectory && rows[1].size == 0 && rows[4].size == 20, "a folder seen only in paths is a folder")
        #expect(rows[5].isSymlink, "names are escaped, links marked")
    }

    @Test func clockTimes() {
        #expect(DisplayFormat.clock(7.9) == "0:07" && DisplayFormat.clock(750) == "12:30" && DisplayFormat.clock(3723) == "1:02:03")
    }
}
