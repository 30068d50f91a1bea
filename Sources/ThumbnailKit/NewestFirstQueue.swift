/// Lists of work waiting to start, the newest list first and each list in its own order: tumbler's
/// LIFO scheduler, which exists because the list a file manager asked for last is what is on the
/// screen now (it asks again when the user scrolls), while the older lists are off it.
///
/// A value: the owner keeps it under its lock. Lists are named by a handle the owner chooses.
public struct NewestFirstQueue<Item: Sendable>: Sendable {
    private struct List: Sendable {
        let handle: UInt32
        var items: [Item]
        /// The next item to hand out.
        var next = 0
    }

    /// Oldest first; `next()` serves the last.
    private var lists: [List] = []

    public init() {}

    /// Whether nothing waits.
    public var isEmpty: Bool { lists.isEmpty }

    /// How many items wait in the list `handle`.
    public func waiting(in handle: UInt32) -> Int {
        lists.first { $0.handle == handle }.map { $0.items.count - $0.next } ?? 0
    }

    /// Adds a list after every other: its items are served before theirs. An empty list is not
    /// kept. Items pushed for a handle whose list still waits join the end of that list, in its
    /// place: one list is given out in parts (what can start at once, then the rest).
    public mutating func push(_ handle: UInt32, _ items: [Item]) {
        guard !items.isEmpty else { return }
        if let index = lists.firstIndex(where: { $0.handle == handle }) {
            lists[index].items += items
        } else {
            lists.append(List(handle: handle, items: items))
        }
    }

    /// The next item of the newest list, and that list's handle.
    public mutating func next() -> (handle: UInt32, item: Item)? {
        guard var list = lists.popLast() else { return nil }
        let item = list.items[list.next]
        list.next += 1
        if list.next < list.items.count { lists.append(list) }
        return (list.handle, item)
    }

    /// Takes the list `handle` out; returns the items of it that had not been handed out.
    @discardableResult
    public mutating func takeOut(_ handle: UInt32) -> [Item] {
        guard let index = lists.firstIndex(where: { $0.handle == handle }) else { return [] }
        let list = lists.remove(at: index)
        return Array(list.items[list.next...])
    }
}
