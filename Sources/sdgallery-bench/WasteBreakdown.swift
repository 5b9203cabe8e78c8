import Foundation

/// Where the scroll benchmark's bytes went, per image (`/img/N.jpg`): the images shown at a pause
/// (their own bytes, and what was fetched of them beyond one copy), the screen after a pause (the
/// prefetch window, flung past by the next burst) and the screens flung through, each split into
/// transfers that completed and transfers cut short.
struct WasteBreakdown {
    struct Row {
        var images = 0
        var requests = 0
        var bytes = 0
        var complete = 0
    }

    var shown = Row()
    /// Bytes of shown images beyond their file size (fetched twice).
    var shownExtra = 0
    /// The shown images fetched beyond one copy: index, requests, bytes, file size.
    var overfetched: [(index: Int, requests: Int, bytes: Int, size: Int)] = []
    var prefetchWindow = Row()
    var flungPast = Row()

    init(snapshot: BenchServerStats.Snapshot, shown seen: Set<Int>, pauses: [ClosedRange<Int>], size: (Int) -> Int) {
        let windows = zip(pauses, pauses.map(\.count)).map { range, span in (range.upperBound + 1)...(range.upperBound + span) }
        for (path, counts) in snapshot.paths where path.hasPrefix("/img/") {
            guard let n = Int(path.dropFirst("/img/".count).split(separator: ".").first ?? "") else { continue }
            let full = size(n)
            func add(_ row: inout Row) {
                row.images += 1
                row.requests += counts.requests
                row.bytes += counts.bytes
                if counts.bytes >= full { row.complete += 1 }
            }
            if seen.contains(n) {
                add(&shown)
                shownExtra += max(0, counts.bytes - full)
                if counts.bytes > full { overfetched.append((n, counts.requests, counts.bytes, full)) }
            } else if windows.contains(where: { $0.contains(n) }) {
                add(&prefetchWindow)
            } else {
                add(&flungPast)
            }
        }
    }

    var markdown: String {
        func mb(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / 1e6) }
        var text = "| where the bytes went | images | fetched whole | requests | bytes |\n|---|---|---|---|---|\n"
        text += "| shown at a pause | \(shown.images) | \(shown.complete) | \(shown.requests) | \(mb(shown.bytes)) (\(mb(shownExtra)) beyond one copy) |\n"
        text += "| the next screen after a pause (prefetched, or a burst's first key), not shown | \(prefetchWindow.images) | \(prefetchWindow.complete) | \(prefetchWindow.requests) | \(mb(prefetchWindow.bytes)) |\n"
        text += "| flung past | \(flungPast.images) | \(flungPast.complete) | \(flungPast.requests) | \(mb(flungPast.bytes)) |\n"
        let worst = overfetched.sorted { $0.bytes - $0.size > $1.bytes - $1.size }.prefix(8)
        if !worst.isEmpty {
            text += "\nShown images fetched beyond one copy: \(overfetched.count); the most: "
            text += worst.map { "\($0.index) (\($0.requests) requests, \(mb($0.bytes)) of \(mb($0.size)))" }.joined(separator: ", ") + "\n"
        }
        return text
    }
}
