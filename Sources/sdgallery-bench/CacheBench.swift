import Dispatch
import Foundation
import Zlib
import ImageCodecs
import WebImage

/// `sdgallery-bench cache [--jpeg PATH] [--dir DIR]`: memory hit latency, disk hit of a thumbnail of a
/// 12 MP JPEG against decoding the original file each time, and store throughput. Prints a table.
enum CacheBench {
    static func run(_ args: [String]) {
        let base = value(of: "--dir", in: args).map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-cache-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: base) }
        var rows: [(String, String)] = []
        rows += memoryHits()
        if let jpeg = value(of: "--jpeg", in: args).map({ URL(fileURLWithPath: $0) }) ?? makeJPEG() {
            rows += diskHits(jpeg: jpeg, dir: base.appendingPathComponent("disk"))
        } else {
            rows.append(("disk hit", "skipped: no 12 MP JPEG (need /usr/bin/convert or --jpeg)"))
        }
        rows += storeThroughput(dir: base.appendingPathComponent("store"))
        print("| measurement | result |\n|---|---|")
        for (name, result) in rows { print("| \(name) | \(result) |") }
    }

    static func memoryHits() -> [(String, String)] {
        let memory = MemoryCache()
        let keys = (0..<2000).map { ImageCacheKey(urlKey: "https://example.com/\($0).jpg", targetSize: PixelSize(width: 160, height: 96)) }
        let thumb = Image(width: 160, height: 96, pixels: [UInt8](repeating: 7, count: 160 * 96 * 4))
        for key in keys { memory.set(thumb, forKey: key) }
        var hits = 0
        let direct = timings(100_000) { i in if memory.image(forKey: keys[(i &* 7919) % keys.count]) != nil { hits += 1 } }
        var config = ImageCacheConfig()
        config.shouldUseDiskCache = false
        let cache = ImageCache(config: config)
        for key in keys { cache.store(image: thumb, data: nil, forKey: key) }
        let viaQuery = timings(100_000) { i in cache.queryCacheOperation(forKey: keys[(i &* 7919) % keys.count]) { _ in } }
        return [
            ("memory hit, MemoryCache.image(forKey:) (100k, 2000 thumbnails)", "median \(us(direct.median)) µs, p99 \(us(direct.p99)) µs (\(hits) hits)"),
            ("memory hit, ImageCache.queryCacheOperation (100k)", "median \(us(viaQuery.median)) µs, p99 \(us(viaQuery.p99)) µs"),
        ]
    }

    static func diskHits(jpeg: URL, dir: URL) -> [(String, String)] {
        guard let original = try? Data(contentsOf: jpeg) else { return [("disk hit", "cannot read \(jpeg.path)")] }
        var config = ImageCacheConfig()
        config.directory = dir
        config.shouldCacheImagesInMemory = false
        let cache = ImageCache(config: config)
        guard let disk = cache.disk else { return [("disk hit", "no disk cache: \(String(describing: cache.diskError))")] }
        let key = ImageCacheKey(urlKey: "https://example.com/12mp.jpg", targetSize: PixelSize(width: 160, height: 96))
        try? disk.store(original, forKey: key.diskKey)
        let mb = String(format: "%.1f MB", Double(original.count) / 1e6)
        let readFile = timings(30) { _ in _ = FileHandle(forReadingAtPath: jpeg.path).flatMap { try? $0.readToEnd() } }
        let readEntry = timings(30) { _ in _ = disk.entry(forKey: key.diskKey) }
        let crc = timings(30) { _ in _ = original.withUnsafeBytes { Zlib.crc32(0, $0) } }
        var stub = config
        stub.directory = dir
        stub.storeDecodedThumbnails = false
        let thumb = Image(width: 160, height: 96, pixels: [UInt8](repeating: 0, count: 160 * 96 * 4))
        stub.decoder = { _, _ in thumb }
        let stubCache = ImageCache(config: stub)
        let stubQuery = timings(30) { _ in query(stubCache, key) }
        var rows = [
            ("read original file (\(mb), FileHandle.readToEnd)", "median \(ms(readFile.median)) ms"),
            ("disk hit, raw DiskCache.entry read + CRC check (\(mb))", "median \(ms(readEntry.median)) ms"),
            ("  of which CRC-32 of \(mb)", "median \(ms(crc.median)) ms"),
            ("disk hit via ImageCache.queryCacheOperation, stub decoder (queues + read + CRC)", "median \(ms(stubQuery.median)) ms"),
        ]
        let options = DecodeOptions(targetSize: key.targetSize)
        do {
            _ = try ImageCoders.decode(original, options: options)
        } catch {
            rows.append(("decode 160×96 from original / disk hit + decode", "not measured: codecs not available (\(error))"))
            return rows
        }
        let decodeEach = timings(20) { _ in _ = try? ImageCoders.decode(Data(contentsOf: jpeg), options: options) }
        var originalsOnly = config
        originalsOnly.storeDecodedThumbnails = false
        let originalsCache = ImageCache(config: originalsOnly)
        let originalQuery = timings(20) { _ in query(originalsCache, key) }
        query(cache, key)  // the first query decodes and keeps the thumbnail
        cache.waitUntilIdle()
        let thumbQuery = timings(20) { _ in query(cache, key) }
        rows.append(("decode 160×96 from the original file each time", "median \(ms(decodeEach.median)) ms"))
        rows.append(("disk hit 160×96, originals only (read + CRC + decode)", "median \(ms(originalQuery.median)) ms"))
        rows.append(("disk hit 160×96, decoded-thumbnail tier (read 61 KB + CRC)", "median \(ms(thumbQuery.median)) ms"))
        return rows
    }

    static func storeThroughput(dir: URL) -> [(String, String)] {
        let body = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var rows: [(String, String)] = []
        for fsync in [true, false] {
            guard let disk = try? DiskCache(config: DiskCacheConfig(directory: dir.appendingPathComponent(fsync ? "sync" : "nosync"), fsyncWrites: fsync)) else { continue }
            let count = 200
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<count { try? disk.store(body, forKey: "https://example.com/\(i).jpg") }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            rows.append(("store 100 KB entries, fsync \(fsync ? "on" : "off") (\(count))",
                         String(format: "%.0f stores/s, %.1f MB/s", Double(count) / seconds, Double(count * body.count) / seconds / 1e6)))
        }
        return rows
    }

    /// The kill test's child (`cache-writer DIR`): stores "kill-N" entries forever, fsynced, until killed.
    static func runKillTestWriter(_ args: [String]) {
        guard let path = args.first, let disk = try? DiskCache(config: DiskCacheConfig(directory: URL(fileURLWithPath: path))) else {
            print("usage: sdgallery-bench cache-writer DIR")
            return
        }
        var n = 0
        while true {
            let count = (1 << 20) + n
            var bytes = [UInt8](repeating: 0, count: count)
            for j in 0..<count { bytes[j] = UInt8(truncatingIfNeeded: j &* 31 &+ n &* 7) }
            try? disk.store(Data(bytes), forKey: "kill-\(n)")
            n = (n + 1) % 200
        }
    }

    /// A 4000×3000 JPEG made once with ImageMagick, kept in the temp directory.
    static func makeJPEG() -> URL? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-bench-12mp.jpg")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        convert.arguments = ["-size", "4000x3000", "gradient:navy-orange", "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "85", url.path]
        guard (try? convert.run()) != nil else { return nil }
        convert.waitUntilExit()
        return convert.terminationStatus == 0 ? url : nil
    }

    /// One query, waited for.
    static func query(_ cache: ImageCache, _ key: ImageCacheKey) {
        let done = DispatchSemaphore(value: 0)
        cache.queryCacheOperation(forKey: key) { _ in done.signal() }
        done.wait()
    }

    static func timings(_ n: Int, _ body: (Int) -> Void) -> (median: UInt64, p99: UInt64) {
        var samples = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            let start = DispatchTime.now().uptimeNanoseconds
            body(i)
            samples[i] = DispatchTime.now().uptimeNanoseconds - start
        }
        samples.sort()
        return (samples[n / 2], samples[min(n - 1, n * 99 / 100)])
    }

    static func us(_ ns: UInt64) -> String { String(format: "%.2f", Double(ns) / 1e3) }
    static func ms(_ ns: UInt64) -> String { String(format: "%.2f", Double(ns) / 1e6) }
    static func value(of flag: String, in args: [String]) -> String? {
        args.firstIndex(of: flag).flatMap { args.indices.contains($0 + 1) ? args[$0 + 1] : nil }
    }
}
