import ImageCodecs
import Synchronization
import Testing
@testable import TerminalGraphics

/// Wraps a renderer and counts its encodes.
final class CountingRenderer: ImageRenderer {
    let inner: any ImageRenderer
    let calls = Atomic<Int>(0)
    init(_ inner: any ImageRenderer) { self.inner = inner }
    var identity: RendererIdentity { inner.identity }
    func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        calls.add(1, ordering: .relaxed)
        return try inner.render(image, cells: cells, cellPixelSize: cellPixelSize)
    }
}

@Suite struct EncodedOutputCacheTests {
    let cell = PixelSize(width: 10, height: 20)
    let cells = CellSize(columns: 16, rows: 5)

    @Test func hitReturnsIdenticalBytesWithoutEncoding() throws {
        let cache = EncodedOutputCache()
        let renderer = CountingRenderer(SixelRenderer())
        let image = TestImages.photo(width: 160, height: 96)
        let first = try cache.render(image, cells: cells, cellPixelSize: cell, with: renderer)
        let second = try cache.render(image, cells: cells, cellPixelSize: cell, with: renderer)
        #expect(first.bytes == second.bytes)
        #expect(renderer.calls.load(ordering: .relaxed) == 1)
        #expect(cache.statistics.encodes == 1 && cache.statistics.hits == 1 && cache.statistics.misses == 1)
    }

    @Test func keyIncludesRectangleRendererAndCellSize() throws {
        let cache = EncodedOutputCache()
        let image = TestImages.photo(width: 40, height: 40)
        _ = try cache.render(image, cells: cells, cellPixelSize: cell, with: HalfBlockRenderer())
        _ = try cache.render(image, cells: CellSize(columns: 8, rows: 4), cellPixelSize: cell, with: HalfBlockRenderer())
        _ = try cache.render(image, cells: cells, cellPixelSize: cell, with: HalfBlockRenderer(colorDepth: .color256))
        _ = try cache.render(image, cells: cells, cellPixelSize: PixelSize(width: 8, height: 16), with: HalfBlockRenderer())
        _ = try cache.render(image, cells: cells, cellPixelSize: cell, with: SixelRenderer(tmuxPassthrough: true))
        _ = try cache.render(TestImages.photo(width: 40, height: 40), cells: cells, cellPixelSize: cell, with: HalfBlockRenderer())
        #expect(cache.statistics.encodes == 6 && cache.count == 6)
        cache.removeAll(imageID: image.id)
        #expect(cache.count == 1)
    }

    @Test func costBoundEvictsLeastRecentlyUsed() throws {
        let images = (0..<4).map { TestImages.photo(width: 32, height: 32, seed: UInt64($0)) }
        let renderer = HalfBlockRenderer()
        let one = try renderer.render(images[0], cells: cells, cellPixelSize: cell).cost
        let cache = EncodedOutputCache(costLimit: one * 3 + one / 2)
        for image in images.prefix(3) { _ = try cache.render(image, cells: cells, cellPixelSize: cell, with: renderer) }
        _ = try cache.render(images[0], cells: cells, cellPixelSize: cell, with: renderer)  // touch 0
        _ = try cache.render(images[3], cells: cells, cellPixelSize: cell, with: renderer)  // evicts 1 (and maybe 2)
        #expect(cache.totalCost <= cache.costLimit)
        let key = { (image: Image) in EncodedOutputKey(imageID: image.id, cells: cells, renderer: renderer.identity, cellPixelSize: cell) }
        #expect(cache.value(for: key(images[0])) != nil)
        #expect(cache.value(for: key(images[3])) != nil)
        #expect(cache.value(for: key(images[1])) == nil)
        #expect(cache.statistics.evictions >= 1)
    }

    @Test func concurrentUseIsSafe() async throws {
        let cache = EncodedOutputCache(costLimit: 200_000)
        let images = (0..<8).map { TestImages.photo(width: 24, height: 24, seed: UInt64($0)) }
        let cells = self.cells, cell = self.cell
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<40 {
                        _ = try cache.render(images[(i + worker) % 8], cells: cells, cellPixelSize: cell, with: HalfBlockRenderer())
                    }
                }
            }
            try await group.waitForAll()
        }
        let stats = cache.statistics
        #expect(stats.hits + stats.misses == 160)
        #expect(stats.encodes == stats.misses)
    }

    @Test func droppedKittyImagesAreReportedForFreeingOnce() throws {
        let renderer = KittyRenderer()
        let small = CellSize(columns: 4, rows: 2)
        let a = TestImages.photo(width: 40, height: 40)
        let b = TestImages.photo(width: 40, height: 40, seed: 2)
        let probe = try renderer.render(a, cells: small, cellPixelSize: cell)
        // Room for about one entry: inserting the second evicts the first.
        let cache = EncodedOutputCache(costLimit: probe.cost + probe.cost / 2)
        let first = try cache.render(a, cells: small, cellPixelSize: cell, with: renderer)
        #expect(cache.takeFreedKittyImageIDs().isEmpty)
        _ = try cache.render(b, cells: small, cellPixelSize: cell, with: renderer)
        #expect(cache.takeFreedKittyImageIDs() == [try #require(first.upload?.id)])
        #expect(cache.takeFreedKittyImageIDs().isEmpty)
        cache.removeAll(imageID: b.id)
        #expect(cache.takeFreedKittyImageIDs().count == 1)
        // Sixel output has no terminal-side data to free.
        _ = try cache.render(a, cells: small, cellPixelSize: cell, with: SixelRenderer())
        cache.removeAll()
        #expect(cache.takeFreedKittyImageIDs().isEmpty)
    }
}
