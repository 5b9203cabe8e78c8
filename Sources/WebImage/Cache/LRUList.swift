/// The storage behind `MemoryCache`: a dictionary from key to slot plus a doubly linked list threaded
/// through an array of slots (indices, not references: no ARC traffic, no retain cycles). Every
/// operation is O(1). Head = most recently used, tail = least. Not thread-safe by itself.
struct LRUList<Key: Hashable, Value> {
    private struct Slot {
        var key: Key?
        var value: Value?
        var cost: Int = 0
        var prev: Int = -1
        var next: Int = -1
    }

    private var slots: [Slot] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var head = -1
    private var tail = -1
    /// Sum of the costs of all entries.
    private(set) var totalCost = 0

    /// Number of entries.
    var count: Int { index.count }

    /// The value for `key`, moved to the front (most recently used).
    mutating func get(_ key: Key) -> Value? {
        guard let i = index[key] else { return nil }
        moveToFront(i)
        return slots[i].value
    }

    /// Whether `key` is present (does not touch its recency).
    func contains(_ key: Key) -> Bool { index[key] != nil }

    /// Changes the value of `key` in place, without touching its recency or cost.
    mutating func update(_ key: Key, _ change: (inout Value) -> Void) {
        guard let i = index[key], var value = slots[i].value else { return }
        change(&value)
        slots[i].value = value
    }

    /// Inserts or replaces `key` at the front.
    mutating func set(_ key: Key, _ value: Value, cost: Int) {
        if let i = index[key] {
            totalCost += cost - slots[i].cost
            slots[i].value = value
            slots[i].cost = cost
            moveToFront(i)
            return
        }
        let slot = Slot(key: key, value: value, cost: cost)
        let i: Int
        if let reused = free.popLast() {
            i = reused
            slots[i] = slot
        } else {
            i = slots.count
            slots.append(slot)
        }
        index[key] = i
        totalCost += cost
        linkFront(i)
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        guard let i = index.removeValue(forKey: key) else { return false }
        release(i)
        return true
    }

    /// Removes the least recently used entry and returns its key.
    @discardableResult
    mutating func removeLeastRecent() -> Key? {
        guard tail >= 0, let key = slots[tail].key else { return nil }
        index[key] = nil
        release(tail)
        return key
    }

    /// Removes every entry whose key matches.
    mutating func removeAll(where matches: (Key) -> Bool) {
        for key in index.keys where matches(key) { remove(key) }
    }

    /// Removes everything.
    mutating func removeAll() {
        self = LRUList()
    }

    /// Keys from most to least recently used (for tests).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var i = head
        while i >= 0 {
            if let key = slots[i].key { keys.append(key) }
            i = slots[i].next
        }
        return keys
    }

    private mutating func release(_ i: Int) {
        unlink(i)
        totalCost -= slots[i].cost
        slots[i] = Slot()
        free.append(i)
    }

    private mutating func moveToFront(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        linkFront(i)
    }

    private mutating func linkFront(_ i: Int) {
        slots[i].prev = -1
        slots[i].next = head
        if head >= 0 { slots[head].prev = i }
        head = i
        if tail < 0 { tail = i }
    }

    private mutating func unlink(_ i: Int) {
        let prev = slots[i].prev, next = slots[i].next
        if prev >= 0 { slots[prev].next = next } else if head == i { head = next }
        if next >= 0 { slots[next].prev = prev } else if tail == i { tail = prev }
        slots[i].prev = -1
        slots[i].next = -1
    }
}
