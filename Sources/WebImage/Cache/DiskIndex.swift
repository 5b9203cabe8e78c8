import Foundation

/// The disk cache's running view of its directory: file name → size, and the total. Updated on every
/// store and removal; replaced by a directory re-scan during sweeps and trims (another process may
/// have changed the directory). Changes made while a scan is running are kept aside and re-applied
/// over the scan's result, so the running size stays exact in a single process.
struct DiskIndex {
    private(set) var sizes: [String: Int] = [:]
    private(set) var total = 0
    private var changesDuringScan: [String: Int?]?
    /// A trim is queued and has not started yet (coalesces trims).
    var trimScheduled = false
    /// When the last full sweep started.
    var lastSweep = Date.distantPast

    /// Records that `name` now has `size` bytes (nil: removed).
    mutating func record(_ name: String, size: Int?) {
        if changesDuringScan != nil { changesDuringScan?[name] = .some(size) }
        apply(name, size)
    }

    /// Whether `name` is known.
    func contains(_ name: String) -> Bool { sizes[name] != nil }

    /// A scan starts: remember changes from now on.
    mutating func beginScan() { changesDuringScan = [:] }

    /// A scan found `scanned`; install it with the changes made meanwhile applied on top.
    mutating func endScan(_ scanned: [String: Int]) {
        let changes = changesDuringScan ?? [:]
        changesDuringScan = nil
        sizes = scanned
        total = scanned.values.reduce(0, +)
        for (name, size) in changes { apply(name, size) }
    }

    private mutating func apply(_ name: String, _ size: Int?) {
        total -= sizes[name] ?? 0
        sizes[name] = size
        total += size ?? 0
    }
}
