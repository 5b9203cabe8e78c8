import Foundation
import ImageCodecs
import WebImage

/// `sdgallery-bench downloader [--count N] [--rounds R] [--concurrency C]`: N files of 50–500 KB
/// served over loopback by `python3 -m http.server`; wall time of `ImageDownloader`
/// (maxConcurrent C, decoding stubbed out so only transport is measured) vs
/// `curl --parallel --parallel-max C` fetching the same URLs, R rounds, alternating who goes first.
enum DownloaderBench {
    static func run(_ arguments: [String]) async {
        let count = option("--count", in: arguments) ?? 200
        let rounds = option("--rounds", in: arguments) ?? 5
        let concurrency = option("--concurrency", in: arguments) ?? 6
        do {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-bench-\(UUID().uuidString)")
            let totalBytes = try makeFiles(count: count, in: dir)
            defer { try? FileManager.default.removeItem(at: dir) }
            let (server, port) = try await startServer(directory: dir)
            defer { server.terminate() }
            let urls = (0..<count).map { URL(string: "http://127.0.0.1:\(port)/img\($0).bin")! }
            print("downloader bench: \(count) files, \(totalBytes / 1024) KB total, maxConcurrent \(concurrency), python3 http.server on 127.0.0.1:\(port)")
            print("round  sdgallery_ms  curl_ms  ratio")
            var ratios: [Double] = []
            for round in 1...rounds {
                var ours = 0.0, theirs = 0.0
                if round % 2 == 1 {
                    ours = try await timeDownloader(urls, concurrency: concurrency)
                    theirs = try timeCurl(urls, concurrency: concurrency)
                } else {
                    theirs = try timeCurl(urls, concurrency: concurrency)
                    ours = try await timeDownloader(urls, concurrency: concurrency)
                }
                ratios.append(ours / theirs)
                print(String(format: "%5d  %12.1f  %7.1f  %5.2f", round, ours * 1000, theirs * 1000, ours / theirs))
            }
            let sorted = ratios.sorted()
            print(String(format: "median ratio %.2f (min %.2f, max %.2f)", sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1]))
        } catch {
            print("downloader bench failed: \(error)")
        }
    }

    private static func option(_ name: String, in arguments: [String]) -> Int? {
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
        return Int(arguments[i + 1])
    }

    /// Writes `count` files of pseudo-random bytes, 50–500 KB each; returns the total size.
    private static func makeFiles(count: Int, in dir: URL) throws -> Int {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var generator = SplitMix(seed: 42)
        var total = 0
        for i in 0..<count {
            let size = 50 * 1024 + Int(generator.next() % UInt64(450 * 1024))
            var bytes = [UInt8](repeating: 0, count: size)
            for j in stride(from: 0, to: size, by: 8) {
                var word = generator.next()
                for k in j..<min(j + 8, size) { bytes[k] = UInt8(truncatingIfNeeded: word); word >>= 8 }
            }
            try Data(bytes).write(to: dir.appendingPathComponent("img\(i).bin"))
            total += size
        }
        return total
    }

    private static func startServer(directory: URL) async throws -> (Process, Int) {
        for attempt in 0..<5 {
            let port = 20_000 + Int.random(in: 0..<30_000) + attempt
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-m", "http.server", "--bind", "127.0.0.1", "--directory", directory.path, String(port)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let probe = ImageDownloader(config: benchConfig(concurrency: 1))
            for _ in 0..<50 {
                do {
                    _ = try await probe.image(for: URL(string: "http://127.0.0.1:\(port)/img0.bin")!)
                    return (process, port)
                } catch {
                    if !process.isRunning { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            process.terminate()
        }
        throw BenchError.serverDidNotStart
    }

    private static func benchConfig(concurrency: Int) -> ImageDownloaderConfig {
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = concurrency
        config.decoding = ImageDecoding(
            decode: { _, _ in Image(width: 1, height: 1, pixels: [0, 0, 0, 255]) },
            makeIncrementalDecoder: { ImageCoders.makeIncrementalDecoder(options: $0) })
        return config
    }

    /// Seconds to download every URL with a fresh downloader.
    private static func timeDownloader(_ urls: [URL], concurrency: Int) async throws -> Double {
        let downloader = ImageDownloader(config: benchConfig(concurrency: concurrency))
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for url in urls { group.addTask { try await downloader.image(for: url).data.count } }
            for try await _ in group {}
        }
        let elapsed = ContinuousClock.now - start
        downloader.invalidateSessionAndCancel(true)
        return seconds(elapsed)
    }

    /// Seconds for `curl --parallel` to fetch every URL to /dev/null.
    private static func timeCurl(_ urls: [URL], concurrency: Int) throws -> Double {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-bench-curl-\(UUID().uuidString).cfg")
        try urls.map { "url = \"\($0.absoluteString)\"\noutput = \"/dev/null\"\n" }.joined()
            .write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.arguments = ["--silent", "--no-progress-meter", "--fail", "--parallel", "--parallel-max", String(concurrency), "--config", config.path]
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        guard process.terminationStatus == 0 else { throw BenchError.curlFailed(process.terminationStatus) }
        return seconds(elapsed)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    enum BenchError: Error { case serverDidNotStart, curlFailed(Int32) }
}

/// A small deterministic PRNG for benchmark payloads.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
