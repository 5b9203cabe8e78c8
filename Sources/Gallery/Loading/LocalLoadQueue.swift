import Foundation
import ImageCodecs

/// One queued local load.
struct LocalLoadJob: Sendable {
    enum Kind: Sendable, Hashable { case visible(SlotID), prefetch(PrefetchRequest) }
    var kind: Kind
    var path: String
    var target: PixelSize
    var refresh: Bool
    var deliver: (@Sendable (CellImageUpdate) -> Void)?
    var token: UInt64 = 0
}

/// The job queue and cache shared by the UI thread and the decode workers.
/// `@unchecked Sendable`: every stored property is read and written only while holding `condition`.
final class LocalLoadQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var visible: [LocalLoadJob] = []
    private var prefetches: [LocalLoadJob] = []
    private var current: [LocalLoadJob.Kind: UInt64] = [:]
    private var nextToken: UInt64 = 1
    private var stopped = false
    private var cache: [String: (image: Image, details: ImageDetails, stamp: UInt64)] = [:]
    private var cacheCost = 0
    private let cacheLimit: Int

    init(cacheCost: Int) { cacheLimit = cacheCost }

    func enqueue(_ job: LocalLoadJob) {
        condition.lock()
        var job = job
        job.token = nextToken
        nextToken += 1
        current[job.kind] = job.token
        switch job.kind {
        case .visible: visible.append(job)
        case .prefetch: prefetches.append(job)
        }
        condition.signal()
        condition.unlock()
    }

    func cancel(_ kind: LocalLoadJob.Kind) {
        condition.lock()
        current[kind] = nil
        visible.removeAll { $0.kind == kind }
        prefetches.removeAll { $0.kind == kind }
        condition.unlock()
    }

    func cancelAll() {
        condition.lock()
        current.removeAll()
        visible.removeAll()
        prefetches.removeAll()
        condition.unlock()
    }

    func shutdown() {
        condition.lock()
        stopped = true
        visible.removeAll()
        prefetches.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func isCurrent(_ job: LocalLoadJob) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return current[job.kind] == job.token
    }

    /// A worker: newest visible job first, then prefetches in order.
    func workLoop() {
        while true {
            condition.lock()
            while !stopped && visible.isEmpty && prefetches.isEmpty { condition.wait() }
            if stopped { condition.unlock(); return }
            let job = visible.isEmpty ? prefetches.removeFirst() : visible.removeLast()
            let key = "\(job.target.width)x\(job.target.height):\(job.path)"
            let cached = job.refresh ? nil : cache[key]
            if cached != nil { cache[key]?.stamp = nextToken; nextToken += 1 }
            condition.unlock()
            if let cached {
                var details = cached.details
                details.origin = "memory"
                if isCurrent(job) { job.deliver?(.final(cached.image, details)) }
                finish(job)
                continue
            }
            guard isCurrent(job) else { continue }
            switch LocalFileImageSource.load(path: job.path, target: job.target) {
            case .success(let (image, details)):
                store(key, image: image, details: details)
                if isCurrent(job) {
                    job.deliver?(.progress(received: details.byteCount ?? 0, expected: details.byteCount))
                    job.deliver?(.final(image, details))
                }
            case .failure(let failure):
                if isCurrent(job) { job.deliver?(.failed(failure.message)) }
            }
            finish(job)
        }
    }

    private func finish(_ job: LocalLoadJob) {
        condition.lock()
        if case .prefetch = job.kind, current[job.kind] == job.token { current[job.kind] = nil }
        condition.unlock()
    }

    private func store(_ key: String, image: Image, details: ImageDetails) {
        condition.lock()
        defer { condition.unlock() }
        guard image.cost <= cacheLimit else { return }
        if let old = cache[key] { cacheCost -= old.image.cost }
        cache[key] = (image, details, nextToken)
        nextToken += 1
        cacheCost += image.cost
        while cacheCost > cacheLimit, let oldest = cache.min(by: { $0.value.stamp < $1.value.stamp }) {
            cacheCost -= oldest.value.image.cost
            cache[oldest.key] = nil
        }
    }
}
