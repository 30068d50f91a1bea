import SystemKit
import ThumbnailKit

/// An archive's members as Quick Look lists them: a tree, folders before files at each level,
/// folders that only appear in members' paths included, each row indented by its depth.
enum ArchiveTree {
    struct Row: Equatable, Sendable {
        let depth: Int
        let name: String
        let isDirectory: Bool
        let isSymlink: Bool
        let size: Int64
        let modified: Int64?
    }

    static func rows(_ members: [ArchiveMember]) -> [Row] {
        final class Node {
            var children: [String: Node] = [:]
            var member: ArchiveMember?
        }
        let root = Node()
        for member in members {
            var node = root
            for part in member.path.split(separator: "/") where part != "." {
                let name = String(part)
                if node.children[name] == nil { node.children[name] = Node() }
                node = node.children[name]!
            }
            if node !== root { node.member = member }
        }
        var rows: [Row] = []
        func visit(_ node: Node, depth: Int) {
            let sorted = node.children.sorted { a, b in
                let aFolder = !a.value.children.isEmpty || a.value.member?.isDirectory == true
                let bFolder = !b.value.children.isEmpty || b.value.member?.isDirectory == true
                return aFolder != bFolder ? aFolder : NaturalOrder.less(a.key, b.key)
            }
            for (name, child) in sorted {
                let isFolder = !child.children.isEmpty || child.member?.isDirectory == true
                rows.append(Row(depth: depth, name: TerminalText.escaped(name), isDirectory: isFolder, isSymlink: child.member?.isSymlink ?? false,
                                size: isFolder ? 0 : child.member?.size ?? 0, modified: child.member?.modified))
                visit(child, depth: depth + 1)
            }
        }
        visit(root, depth: 0)
        return rows
    }
}
