import Foundation

/// `sdgallery-bench animate [--sdgallery BIN] [--seconds S] [--renderers sixel,kitty,blocks]`: what
/// animated cells cost the terminal. The gallery on the benchmark pty (`PtyRunner`, 160×48 cells of
/// 10×20 px, a terminal that reads as fast as it can) over 12 animated images (the demo's GIF, WebP
/// and GIF animations, four copies each), for each renderer with `--animate=off` and `on`: after 4 s
/// to load, arrow keys every 100 ms for S seconds, then `q`. Prints the bytes of the whole run
/// (kitty's uploads of every frame are in it), the bytes per second written while the keys ran and the key-to-frame p50/p95 of `--stats` (key read → frame presented; the
/// time a real terminal then takes to parse the bytes ahead of the frame is not in it), and the CPU
/// time the gallery used over the whole run (loading, decoding, painting frames).
enum AnimateBench {
    static func run(_ arguments: [String]) {
        let binary = Arguments.string("--sdgallery", in: arguments) ?? ".build/release/sdgallery"
        let seconds = Double(Arguments.string("--seconds", in: arguments) ?? "") ?? 6
        let renderers = (Arguments.string("--renderers", in: arguments) ?? "sixel,kitty,blocks").split(separator: ",").map(String.init)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-animate-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let images = scratch.appendingPathComponent("images")
        try? FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let demo = URL(fileURLWithPath: "assets/demo")
        let sources = ["63-chelsea-pan-animated.gif", "64-coffee-pan-animated.webp", "73-generated-spinner-animated.gif"]
        for copy in 0..<4 {
            for (n, name) in sources.enumerated() {
                let target = images.appendingPathComponent(String(format: "%02d-%@", copy * 3 + n, name))
                guard (try? FileManager.default.copyItem(at: demo.appendingPathComponent(name), to: target)) != nil else {
                    print("animate: cannot copy assets/demo/\(name) (run from the repository)")
                    return
                }
            }
        }
        print("| renderer | --animate | bytes, whole run | bytes/s while keys run | key-to-frame p50 | p95 | CPU of the whole run |")
        print("|---|---|---|---|---|---|---|")
        for renderer in renderers {
            for animate in ["off", "on"] {
                var runner = PtyRunner()
                runner.timeout = seconds + 30
                let stats = scratch.appendingPathComponent("stats-\(renderer)-\(animate).txt").path
                runner.stderrPath = stats
                runner.environment["XDG_CACHE_HOME"] = scratch.appendingPathComponent("cache-\(renderer)-\(animate)").path
                let start = 4.0
                var keys: [(at: Double, bytes: [UInt8])] = []
                var at = start
                var index = 0
                while at < start + seconds {
                    keys.append((at, Array((index / 5 % 2 == 0 ? "l" : "h").utf8)))
                    at += 0.1
                    index += 1
                }
                keys.append((at + 0.2, Array("q".utf8)))
                runner.keys = keys
                runner.window = (start, start + seconds)
                guard let result = try? runner.run([binary, "--stats", "--renderer", renderer, "--animate", animate, images.path]) else {
                    print("| \(renderer) | \(animate) | failed to run | | | | |")
                    continue
                }
                let text = (try? String(contentsOfFile: stats, encoding: .utf8)) ?? ""
                func milliseconds(_ label: String) -> String {
                    text.split(separator: "\n").first { $0.contains(label) }
                        .flatMap { line in line.split(separator: " ").dropLast().last.map { "\($0) ms" } } ?? "-"
                }
                let rate = Double(result.windowBytes) / seconds
                print("| \(renderer) | \(animate) | \(String(format: "%.1f MB", Double(result.bytes) / 1e6)) | \(String(format: "%.0f kB/s", rate / 1000)) | \(milliseconds("key-to-frame p50")) | \(milliseconds("key-to-frame p95")) | \(String(format: "%.1f s of %.0f s", result.cpuSeconds, result.seconds)) |")
            }
        }
    }
}
