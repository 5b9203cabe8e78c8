import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import WebImage

/// The decoded-thumbnail tier: a warm query at a target size reads the small bitmap instead of
/// decoding the original again, and never serves a thumbnail of an older original.
@Suite struct ImageCacheThumbnailTests {
    let url = ImageCacheKey(url: URL(string: "https://example.com/photo.jpg")!)
    let box = PixelSize(width: 24, height: 24)

    /// A cache with the real decoder, counting its calls.
    func makeCache(thumbnails: Bool = true) throws -> (ImageCache, DecodeCounter) {
        var config = ImageCacheConfig()
        config.directory = try Fixtures.temporaryDirectory("thumbs")
        config.fsyncDiskWrites = false
        config.storeDecodedThumbnails = thumbnails
        let calls = DecodeCounter()
        config.decoder = { data, options in try calls.decode(data, options) }
        return (ImageCache(config: config), calls)
    }

    func query(_ cache: ImageCache, _ key: ImageCacheKey) -> ImageCacheQueryResult? {
        let result = Locked<ImageCacheQueryResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        cache.queryCacheOperation(forKey: key) { r in
            result.withLock { $0 = r }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        return result.withLock { $0 }
    }

    @Test func warmQueryReadsTheThumbnailInsteadOfDecoding() throws {
        let (cache, calls) = try makeCache()
        let original = try Fixtures.data("codecs/jpeg/baseline.jpg")
        cache.store(image: nil, data: original, forKey: url)
        cache.waitUntilIdle()
        let key = url.withTargetSize(box)
        let cold = try #require(query(cache, key))
        #expect(cold.cacheType == .disk)
        #expect(calls.count == 1)
        cache.waitUntilIdle()
        #expect(cache.diskCount == 2)  // original + thumbnail

        cache.clearMemory()
        let warm = try #require(query(cache, key))
        #expect(warm.cacheType == .disk)
        #expect(calls.count == 1)  // no second decode
        #expect(warm.image?.size == cold.image?.size)
        #expect(warm.image?.pixels == cold.image?.pixels)
        #expect(warm.image?.sourceSize == cold.image?.sourceSize)
    }

    @Test func storingADownloadAtATargetSizeKeepsItsThumbnail() throws {
        let (cache, calls) = try makeCache()
        let original = try Fixtures.data("codecs/jpeg/baseline.jpg")
        let key = url.withTargetSize(box)
        let image = try ImageCoders.decode(original, options: DecodeOptions(targetSize: box))
        cache.store(image: image, data: original, forKey: key)
        cache.waitUntilIdle()
        cache.clearMemory()
        let warm = try #require(query(cache, key))
        #expect(warm.image?.pixels == image.pixels)
        #expect(calls.count == 0)
    }

    @Test func aNewOriginalMakesTheOldThumbnailStale() throws {
        let (cache, calls) = try makeCache()
        let key = url.withTargetSize(box)
        cache.store(image: nil, data: try Fixtures.data("codecs/jpeg/baseline.jpg"), forKey: url)
        cache.waitUntilIdle()
        let first = try #require(query(cache, key))
        cache.waitUntilIdle()
        let replacement = try Fixtures.data("codecs/jpeg/gray.jpg")
        cache.store(image: nil, data: replacement, forKey: url)
        cache.waitUntilIdle()
        cache.clearMemory()
        let second = try #require(query(cache, key))
        let expected = try ImageCoders.decode(replacement, options: DecodeOptions(targetSize: box))
        #expect(second.image?.pixels == expected.pixels)
        #expect(second.image?.pixels != first.image?.pixels)
        #expect(calls.count == 2)
    }

    @Test func switchedOffMeansNoThumbnails() throws {
        let (cache, calls) = try makeCache(thumbnails: false)
        cache.store(image: nil, data: try Fixtures.data("codecs/jpeg/baseline.jpg"), forKey: url)
        cache.waitUntilIdle()
        _ = query(cache, url.withTargetSize(box))
        cache.waitUntilIdle()
        #expect(cache.diskCount == 1)
        cache.clearMemory()
        _ = query(cache, url.withTargetSize(box))
        #expect(calls.count == 2)
    }

    @Test func formatRoundTripsAndRejectsDamage() {
        var image = Image(width: 3, height: 2, pixels: (0..<24).map { UInt8($0) }, sourceSize: PixelSize(width: 300, height: 200))
        image.sourceFormat = .webp
        image.sourceByteCount = 123_456
        let data = DecodedThumbnail.encode(image, sourceIdentity: "1:2:3")
        let back = DecodedThumbnail.decode(data)
        #expect(back?.image.sourceFormat == .webp)
        #expect(back?.image.sourceByteCount == 123_456)
        #expect(back?.image.pixels == image.pixels)
        #expect(back?.image.sourceSize == PixelSize(width: 300, height: 200))
        #expect(back?.sourceIdentity == "1:2:3")
        #expect(DecodedThumbnail.decode(data.dropLast()) == nil)
        #expect(DecodedThumbnail.decode(Data("SDGTHMB1".utf8)) == nil)
        #expect(DecodedThumbnail.decode(Data(repeating: 0xFF, count: 64)) == nil)
        let frames = [ImageFrame(pixels: image.pixels, duration: 0.1), ImageFrame(pixels: image.pixels, duration: 0.1)]
        let animated = Image(width: 3, height: 2, pixels: image.pixels, frames: frames)
        #expect(!DecodedThumbnail.isWorthKeeping(animated, originalBytes: 1 << 20))
        #expect(!DecodedThumbnail.isWorthKeeping(image, originalBytes: 10))
        #expect(DecodedThumbnail.isWorthKeeping(image, originalBytes: 1000))
    }
}

/// The real decoder, counting calls.
final class DecodeCounter: Sendable {
    private let calls = Locked(0)
    var count: Int { calls.withLock { $0 } }
    func decode(_ data: Data, _ options: DecodeOptions) throws -> Image {
        calls.withLock { $0 += 1 }
        return try ImageCoders.decode(data, options: options)
    }
}
