import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension DiskCache {
    /// One file found by a directory scan.
    struct ScannedFile {
        let name: String
        let status: FileStatus
    }

    /// What one maintenance pass did.
    struct MaintenanceReport: Equatable {
        var expired = 0
        var tempFiles = 0
        var trimmed = 0
        var trimmedBytes = 0
    }

    /// Temp files this young with no bytes may belong to a writer that has not locked them yet.
    static let tempGrace: TimeInterval = 10

    /// Removes expired entries and dead writers' temp files now (on the maintenance queue; waits).
    @discardableResult
    public func removeExpired() -> Int {
        maintenanceQueue.sync { maintain(trim: false).expired }
    }

    /// Removes every entry (and dead writers' temp files); live writers' temp files are left alone.
    public func removeAll() {
        maintenanceQueue.sync {
            index.withLock { $0.beginScan() }
            for name in POSIXFile.names(in: path) {
                let file = path + "/" + name
                if name.hasPrefix(Self.tempPrefix) {
                    _ = removeIfDeadTemp(file)
                } else if Self.isEntryName(name) {
                    unlink(file)
                }
            }
            index.withLock { $0.endScan([:]) }
        }
    }

    /// Blocks until queued sweeps and trims have finished (tests, benchmarks, shutdown).
    public func waitUntilIdle() {
        maintenanceQueue.sync {}
    }

    /// After a store: queue a trim if the size limit is crossed, or a sweep if one is due.
    func afterStore(now: Date) {
        let interval = config.sweepInterval
        let (over, sweepDue) = index.withLock { index -> (Bool, Bool) in
            let over = index.total > config.maxSize && !index.trimScheduled
            let due = now.timeIntervalSince(index.lastSweep) > interval && !index.trimScheduled
            if over || due { index.trimScheduled = true }
            return (over, due)
        }
        if over || sweepDue { scheduleMaintenance(trim: true, alreadyFlagged: true) }
    }

    /// Queues a maintenance pass on the maintenance queue.
    func scheduleMaintenance(trim: Bool, alreadyFlagged: Bool = false) {
        if !alreadyFlagged { index.withLock { $0.trimScheduled = true } }
        maintenanceQueue.async { [self] in
            index.withLock { $0.trimScheduled = false }
            let report = maintain(trim: trim)
            if report.expired > 0 || report.tempFiles > 0 {
                self.report(.swept(expiredCount: report.expired, tempFileCount: report.tempFiles))
            }
            if report.trimmed > 0 {
                self.report(.trimmed(removedCount: report.trimmed, removedBytes: report.trimmedBytes, newSize: totalSize))
            }
        }
    }

    /// One pass (maintenance queue only): re-scan the directory, remove dead temp files and expired
    /// entries, and if `trim` and the total exceeds `maxSize`, remove least recently used entries down
    /// to `trimRatio × maxSize`. Re-syncs the running size from what it found.
    func maintain(trim: Bool) -> MaintenanceReport {
        var report = MaintenanceReport()
        let now = config.clock()
        index.withLock {
            $0.beginScan()
            $0.lastSweep = now
        }
        var live: [ScannedFile] = []
        for name in POSIXFile.names(in: path) {
            let file = path + "/" + name
            if name.hasPrefix(Self.tempPrefix) {
                if removeIfDeadTemp(file) { report.tempFiles += 1 }
                continue
            }
            guard Self.isEntryName(name), let st = POSIXFile.status(path: file), st.isRegular else { continue }
            if now.timeIntervalSince(st.modified) > config.maxAge {
                if POSIXFile.unlinkIfSame(path: file, as: st) {
                    report.expired += 1
                    index.withLock { $0.record(name, size: nil) }
                }
                continue
            }
            live.append(ScannedFile(name: name, status: st))
        }
        var total = live.reduce(0) { $0 + $1.status.size }
        let target = Int(Double(config.maxSize) * config.trimRatio)
        if trim && total > config.maxSize {
            live.sort { $0.status.modified < $1.status.modified }
            var kept = live[...]
            while total > target, let oldest = kept.first {
                kept = kept.dropFirst()
                if POSIXFile.unlinkIfSame(path: path + "/" + oldest.name, as: oldest.status) {
                    report.trimmed += 1
                    report.trimmedBytes += oldest.status.size
                    index.withLock { $0.record(oldest.name, size: nil) }
                }
                total -= oldest.status.size
            }
            live = Array(kept)
        }
        let scanned = Dictionary(live.map { ($0.name, $0.status.size) }, uniquingKeysWith: { a, _ in a })
        index.withLock { $0.endScan(scanned) }
        return report
    }

    /// Removes a temp file whose writer is gone: nobody holds its lock, and it has bytes or is older
    /// than `tempGrace` (a brand-new empty one may not be locked yet). Returns whether it was removed.
    func removeIfDeadTemp(_ file: String) -> Bool {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, let st = POSIXFile.status(fd: fd) else { return false }
        guard st.size > 0 || Date().timeIntervalSince(st.modified) > Self.tempGrace else { return false }
        return POSIXFile.unlinkIfSame(path: file, as: st)
    }

    /// Whether `name` looks like an entry: 64 hex digits, a dot, a known extension.
    static func isEntryName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        guard utf8.count > 65, utf8[64] == UInt8(ascii: ".") else { return false }
        let hex = utf8[0..<64].allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
        return hex && extensions.contains(String(decoding: utf8[65...], as: UTF8.self))
    }
}
