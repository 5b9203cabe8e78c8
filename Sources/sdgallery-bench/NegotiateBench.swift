import Foundation
import Gallery
import TestSupport

/// `sdgallery-bench negotiate --images DIR [--sdgallery BIN[,BIN…]]`: the bytes of one cold `--print`
/// sheet of 16 photographs (the baseline set at 1280 px wide: JPEG quality 85, the same picture as
/// WebP quality 80 (cwebp) and AVIF quantizer 20–30 (avifenc), made once next to the other sets)
/// from a server that negotiates on `Accept` as a CDN does — without negotiation (every file as
/// JPEG), then with it for each binary, which gets the format its `Accept` prefers.
enum NegotiateBench {
    static func run(_ arguments: [String]) {
        guard let context = BenchContext.from(arguments) else { return }
        defer { try? FileManager.default.removeItem(at: context.scratch) }
        let binaries = (Arguments.string("--sdgallery", in: arguments) ?? context.sdgallery).split(separator: ",").map(String.init)
        guard let folder = variantSet(context) else { return print("negotiate: the set needs /usr/bin/convert, cwebp and avifenc") }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
        print("| server | binary | requests | sent | formats served |")
        print("|---|---|---:|---:|---|")
        for (negotiate, binary) in [(false, binaries[0])] + binaries.map({ (true, $0) }) {
            var config = BenchServer.Config(directory: folder)
            config.negotiate = negotiate
            guard let server = try? BenchServer.startBlocking(config) else { continue }
            let list = context.writeList("negotiate.txt", files.map { "http://127.0.0.1:\(server.port)/files/\($0)" })
            let cache = context.freshDirectory("xdg")
            var runner = PtyRunner()
            runner.environment["XDG_CACHE_HOME"] = cache.path
            _ = try? runner.run([binary, "--print", "--renderer", "blocks", "--columns", "4", list])
            let total = server.stats.snapshot.total
            let served = server.served.withLock { $0 }
            server.stopBlocking()
            try? FileManager.default.removeItem(at: cache)
            let formats = served.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print(String(format: "| %@ | %@ | %d | %.2f MB | %@ |", negotiate ? "negotiates" : "JPEG only", (binary as NSString).lastPathComponent,
                         total.requests, Double(total.bytes) / 1e6, formats))
        }
    }

    /// The set: each baseline photograph as JPEG, WebP and AVIF at 1280 px wide.
    static func variantSet(_ context: BenchContext) -> URL? {
        let folder = context.images.appendingPathComponent("negotiate")
        let baseline = context.images.appendingPathComponent("baseline")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: baseline.path)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
        if ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).count == names.count * 3, !names.isEmpty { return folder }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            let jpeg = folder.appendingPathComponent(name), stem = jpeg.deletingPathExtension()
            let steps: [(String, [String])] = [
                ("/usr/bin/convert", [baseline.appendingPathComponent(name).path, "-resize", "1280x", "-quality", "85", "-strip", jpeg.path]),
                ("/usr/bin/cwebp", ["-quiet", "-q", "80", jpeg.path, "-o", stem.appendingPathExtension("webp").path]),
                ("/usr/bin/avifenc", ["--min", "20", "--max", "30", "-s", "8", jpeg.path, stem.appendingPathExtension("avif").path]),
            ]
            for (tool, args) in steps {
                guard let result = try? ChildProcess.run(tool, args, timeout: 300), result.status == 0 else { return nil }
            }
        }
        return folder
    }
}
