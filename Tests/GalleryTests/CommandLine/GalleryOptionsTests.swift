import Foundation
import ImageCodecs
import Testing
import WebImage
import TestSupport
@testable import Gallery

@Suite struct GalleryOptionsTests {
    @Test func headersAndRatesParseStrictly() {
        #expect(GalleryOptions.parseHeader("X-Token:  abc ") == HTTPHeaderField(name: "X-Token", value: "abc"))
        #expect(GalleryOptions.parseHeader("Accept: image/webp,*/*") == HTTPHeaderField(name: "Accept", value: "image/webp,*/*"))
        #expect(GalleryOptions.parseHeader("no colon") == nil)
        #expect(GalleryOptions.parseHeader(": empty name") == nil)
        #expect(GalleryOptions.parseHeader("Bad Name: x") == nil)
        #expect(GalleryOptions.parseHeader("X: a\r\nInjected: 1") == nil)
        #expect(GalleryOptions.parseRate("200k") == 200_000)
        #expect(GalleryOptions.parseRate("1.5M") == 1_500_000)
        #expect(GalleryOptions.parseRate("4096") == 4096)
        #expect(GalleryOptions.parseRate("0") == nil)
        #expect(GalleryOptions.parseRate("fast") == nil)
    }


    /// Issue 30: the gallery ran 6 downloads in all, so six stalled URLs on one host held every one.
    /// Now 12 in all and at most 6 per host (the downloader's rule).
    @Test func downloadsDefaultToTwelveInAllAndSixPerHost() {
        #expect(GalleryOptions().maxConcurrent == 12)
        #expect(ImageDownloaderConfig().maxDownloadsPerHost == 6)
    }

    @Test func statsPercentile() {
        #expect(GalleryStats.percentile([], 0.95) == nil)
        #expect(GalleryStats.percentile([5], 0.95) == 5)
        #expect(GalleryStats.percentile((1...100).map(Double.init), 0.95) == 95)
        #expect(GalleryStats.percentile((1...100).map(Double.init), 0.50) == 50)
    }

    @Test(.disabled(if: Sanitizers.address, "AddressSanitizer intercepts mallopt"))
    func heapTuningFixesTheMmapThreshold() {
        #if canImport(Glibc)
        #expect(HeapTuning.apply())
        #expect(HeapTuning.mmapThreshold == 1 << 20)
        #endif
    }

    @Test func statsReportHasTheKeyToFrameMedianAndP95() async throws {
        let harness = try AppHarness(count: 40)
        harness.type("llj")
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count >= 18 })
        harness.type("q")
        #expect(await harness.finish())
        let stats = GalleryStats(app: harness.app, started: GalleryApp.now())
        #expect(stats.keys >= 1)  // one per read of the keyboard: "llj" may arrive in one read
        let p50 = try #require(stats.keyToFrameP50), p95 = try #require(stats.keyToFrameP95)
        #expect(p50 <= p95)
        let lines = stats.report.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("  key-to-frame p50  ") && $0.hasSuffix(" ms") })
        #expect(lines.contains { $0.hasPrefix("  key-to-frame p95  ") && $0.hasSuffix(" ms") })
        // How long the quit took, from its key to now (the loop ended, loads cancelled).
        let quit = try #require(stats.quitMilliseconds)
        #expect(quit >= 0 && quit < 60_000)
        #expect(lines.contains { $0.hasPrefix("  quit              ") && $0.hasSuffix(" ms") })
    }

    @Test func plainContactSheetHasCaptionsAndNoEscapes() throws {
        let dir = try TestSupportShim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let entries = [
            URLListEntry(line: 1, location: .file(path: dir.appendingPathComponent("missing.png").path), title: "Gone"),
            URLListEntry(line: 2, location: .remote(URL(string: "https://e.example/x.jpg")!)),
        ]
        var out = ""
        var options = GalleryOptions()
        options.noDiskCache = true
        let load = WebImageStack(options: options).components.loadForPrint
        let failures = ContactSheet(width: 60, columns: 2, depth: nil).render(entries, load: load) { out += $0 }
        #expect(failures == 2)
        #expect(!out.contains("\u{1B}"))
        #expect(out.contains("Gone"))
        #expect(out.contains("✗ file not found"))
        #expect(out.contains("x.jpg"))
    }
}

/// Temporary folders without depending on the working directory.
enum TestSupportShim {
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
