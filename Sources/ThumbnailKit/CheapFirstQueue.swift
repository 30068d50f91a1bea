/// Work waiting for a worker: first come, first served, except that a cheap item (a file's
/// embedded preview: a few kilobytes read, nothing big decoded) goes before any other, so a
/// screen of files on a slow share shows every tile's preview before the first full decode ends.
/// A slot kept for cheap work asks with `cheapOnly` and takes nothing else.
struct CheapFirstQueue<Element> {
    private var items: [Element] = []
    /// How many items are cheap: none, and the queue is not searched.
    private var cheapCount = 0
    private let isCheap: (Element) -> Bool

    init(isCheap: @escaping (Element) -> Bool) { self.isCheap = isCheap }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var hasCheap: Bool { cheapCount > 0 }

    mutating func append(_ item: Element) {
        items.append(item)
        if isCheap(item) { cheapCount += 1 }
    }

    /// The first cheap item, else the first (nil when `cheapOnly` and none is cheap).
    mutating func next(cheapOnly: Bool = false) -> Element? {
        let cheap = cheapCount > 0 ? items.firstIndex(where: isCheap) : nil
        guard let index = cheap ?? (cheapOnly || items.isEmpty ? nil : 0) else { return nil }
        return take(at: index)
    }

    /// Takes out the first item matching `predicate`.
    mutating func takeOut(where predicate: (Element) -> Bool) -> Element? {
        items.firstIndex(where: predicate).map { take(at: $0) }
    }

    /// Empties the queue, returning what waited.
    mutating func removeAll() -> [Element] {
        defer { items.removeAll(); cheapCount = 0 }
        return items
    }

    private mutating func take(at index: Int) -> Element {
        let item = items.remove(at: index)
        if isCheap(item) { cheapCount -= 1 }
        return item
    }
}
