import Dispatch
import ImageCodecs
import Testing
@testable import WebImage

@Suite struct MemoryCacheTests {
    let a = ImageCacheKey(urlKey: "a"), b = ImageCacheKey(urlKey: "b"), c = ImageCacheKey(urlKey: "c")

    @Test func lruOrderFollowsUse() {
        let cache = MemoryCache(costLimit: 1 << 20)
        cache.set(solidImage(2, 2), forKey: a)
        cache.set(solidImage(2, 2), forKey: b)
        cache.set(solidImage(2, 2), forKey: c)
        #expect(cache.keysByRecency == [c, b, a])
        #expect(cache.image(forKey: a) != nil)
        #expect(cache.keysByRecency == [a, c, b])
        #expect(!cache.contains(ImageCacheKey(urlKey: "zz")))
        _ = cache.contains(b)  // does not touch
        #expect(cache.keysByRecency == [a, c, b])
    }

    @Test func costEvictsLeastRecentlyUsed() {
        // Limit 1000 bytes: entries of 100 bytes (5×5×4) are allowed (≤ 10%).
        let cache = MemoryCache(costLimit: 1000)
        let keys = (0..<10).map { ImageCacheKey(urlKey: "k\($0)") }
        for key in keys { #expect(cache.set(solidImage(5, 5), forKey: key)) }
        #expect(cache.totalCost == 1000)
        _ = cache.image(forKey: keys[0])  // k0 becomes most recent: k1 is now the oldest
        cache.set(solidImage(5, 5), forKey: ImageCacheKey(urlKey: "new"))
        #expect(cache.totalCost == 1000)
        #expect(cache.image(forKey: keys[1]) == nil)
        #expect(cache.image(forKey: keys[0]) != nil)
        #expect(cache.count == 10)
    }

    @Test func countLimitEvicts() {
        let cache = MemoryCache(costLimit: 1 << 20, countLimit: 2)
        cache.set(solidImage(1, 1), forKey: a)
        cache.set(solidImage(1, 1), forKey: b)
        cache.set(solidImage(1, 1), forKey: c)
        #expect(cache.keysByRecency == [c, b])
    }

    @Test func oversizeEntryIsRefusedAndDropsTheOldOne() {
        let cache = MemoryCache(costLimit: 1000)
        #expect(cache.set(solidImage(5, 5), forKey: a))   // 100 bytes = 10%: kept
        #expect(!cache.set(solidImage(6, 5), forKey: b))  // 120 bytes > 10%: refused
        #expect(cache.image(forKey: b) == nil)
        #expect(!cache.set(solidImage(6, 5), forKey: a))  // a stale smaller version must not survive
        #expect(cache.image(forKey: a) == nil)
        #expect(cache.totalCost == 0)
        #expect(MemoryCache().costLimit == 256 << 20)
    }

    @Test func replacingAKeyUpdatesCost() {
        let cache = MemoryCache(costLimit: 10_000)
        cache.set(solidImage(5, 5), forKey: a)
        cache.set(solidImage(2, 2), forKey: a)
        #expect(cache.totalCost == 16)
        #expect(cache.count == 1)
    }

    @Test func thumbnailAndFullViewAreDifferentEntries() {
        let cache = MemoryCache(costLimit: 1 << 20)
        let full = ImageCacheKey(urlKey: "u"), thumb = full.withTargetSize(PixelSize(width: 16, height: 16))
        cache.set(solidImage(20, 20), forKey: full)
        cache.set(solidImage(16, 16), forKey: thumb)
        #expect(cache.image(forKey: full)?.width == 20)
        #expect(cache.image(forKey: thumb)?.width == 16)
        cache.removeImages(urlKey: "u")
        #expect(cache.count == 0)
    }

    @Test func concurrentUseKeepsTheBooksBalanced() {
        let cache = MemoryCache(costLimit: 40_000)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<2000 {
                let key = ImageCacheKey(urlKey: "k\((i * 7 + worker) % 300)")
                if i % 3 == 0 { cache.removeImage(forKey: key) } else if i % 2 == 0 { _ = cache.image(forKey: key) } else { cache.set(solidImage(10, 10), forKey: key) }
            }
        }
        #expect(cache.totalCost <= 40_000)
        #expect(cache.totalCost == cache.count * 400)
        #expect(cache.keysByRecency.count == cache.count)
    }
}
