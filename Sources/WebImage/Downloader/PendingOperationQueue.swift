/// Operations waiting for a slot: highest priority first; within a priority, the higher queue order
/// (`ImageRequest.queueOrder`) first; then FIFO or LIFO by arrival.
/// Linear scans: the queue holds at most a few hundred entries. Not thread-safe (the downloader's
/// lock guards it).
struct PendingOperationQueue {
    private struct Entry {
        let operation: any DownloadOperation
        var priority: DownloadPriority
        var order: Int?
        let sequence: Int
    }

    private var entries: [Entry] = []
    private var sequence = 0

    /// Number of waiting operations.
    var count: Int { entries.count }

    /// Adds an operation.
    mutating func enqueue(_ operation: any DownloadOperation, priority: DownloadPriority, order: Int? = nil) {
        sequence += 1
        entries.append(Entry(operation: operation, priority: priority, order: order, sequence: sequence))
    }

    /// Records a new priority for a waiting operation (no-op if it is not waiting); a joining
    /// request's `order` raises the operation's order when it is higher.
    mutating func update(_ operation: any DownloadOperation, priority: DownloadPriority, order: Int? = nil) {
        guard let i = index(of: operation) else { return }
        entries[i].priority = priority
        if let order { entries[i].order = max(entries[i].order ?? order, order) }
    }

    /// Removes an operation if it is waiting.
    mutating func remove(_ operation: any DownloadOperation) {
        if let i = index(of: operation) { entries.remove(at: i) }
    }

    /// Removes and returns the operation to start next, among those `allowed` admits.
    mutating func dequeue(order: ImageDownloaderConfig.ExecutionOrder,
                          where allowed: (any DownloadOperation) -> Bool = { _ in true }) -> (any DownloadOperation)? {
        guard var best = entries.indices.first(where: { allowed(entries[$0].operation) }) else { return nil }
        for i in entries.indices where i > best && allowed(entries[i].operation) {
            let a = entries[i], b = entries[best]
            if a.priority != b.priority {
                if a.priority > b.priority { best = i }
            } else if let ao = a.order, let bo = b.order, ao != bo {
                if ao > bo { best = i }
            } else if order == .fifo ? a.sequence < b.sequence : a.sequence > b.sequence {
                best = i
            }
        }
        return entries.remove(at: best).operation
    }

    private func index(of operation: any DownloadOperation) -> Int? {
        entries.firstIndex { $0.operation === operation }
    }
}
