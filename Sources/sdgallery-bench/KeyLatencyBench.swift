import Foundation
import TestSupport

/// `sdgallery-bench keys --images DIR [--sdgallery BIN] [--quick] [--rate R]`: key-to-frame time while
/// downloads run. The UI in tmux over 400 URLs of 12 MP JPEGs (`baseline/`) throttled to `--rate`
/// per response (default 100 KB/s, so the 6 download slots stay busy, with progressive decoding of
/// what arrives); once 6 responses are in flight, keys every 60 ms: arrows across the grid, and a
/// PageDown / PageUp every 20 keys (which cancel and rebind a screen). Then `q`; the figures are
/// those of `sdgallery --stats` (key read → frame presented, p50 and p95).
enum KeyLatencyBench {
    static func run(_ context: BenchContext, arguments: [String] = []) -> BenchSection {
        let rate = ((try? Arguments.rate("--rate", in: arguments)) ?? nil) ?? 100_000
        let keyCount = context.quick ? 80 : 240
        var markdown = """
        ## Key-to-frame while 6 downloads run

        The UI in tmux over 400 URLs of 12 MP JPEGs, each response throttled to \(rate / 1000) KB/s
        (downloads never finish during the test, progressive decodes run as bytes arrive). When 6
        responses are in flight, \(keyCount) keys are sent 60 ms apart: arrows across the grid, a PageDown or
        PageUp every 20th key. Figures from `sdgallery --stats` (time from reading a key to presenting
        its frame).


        """
        let server: BenchServer
        switch context.startServer("baseline", rate: rate) {
        case .success(let started): server = started
        case .failure(let failure): return BenchSection(markdown: markdown + "skipped: \(failure.reason)\n\n", targets: [])
        }
        defer { server.stopBlocking() }
        let list = context.writeList("keys.txt", (0..<400).map { server.aliasURL($0) })
        let cache = context.freshDirectory("keys-xdg")
        let statsPath = context.scratch.appendingPathComponent("keys-stats.txt").path
        guard let tmux = TmuxSession.bench("XDG_CACHE_HOME=\(cache.path) exec \(context.sdgallery) --stats \(list) 2>\(statsPath)") else {
            return BenchSection(markdown: markdown + "tmux failed\n\n", targets: [])
        }
        defer { tmux.close() }
        let deadline = monotonicNow() + 15
        while server.stats.snapshot.active < 6 && monotonicNow() < deadline { usleep(50_000) }
        var active: [Int] = []
        let pattern = ["Right", "Right", "Right", "Right", "Right", "Down", "Left", "Left", "Left", "Left", "Left", "Down"]
        for i in 0..<keyCount {
            let key = i % 20 == 19 ? ((i / 20) % 2 == 0 ? "PageDown" : "PageUp") : pattern[i % pattern.count]
            tmux.send(key)
            active.append(server.stats.snapshot.active)
            usleep(60_000)
        }
        tmux.send("q")
        tmux.waitForExit(timeout: 10)
        let text = (try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? ""
        func milliseconds(_ label: String) -> Double? {
            text.split(separator: "\n").first { $0.contains(label) }
                .flatMap { line in line.split(separator: " ").dropLast().last.flatMap { Double($0) } }
        }
        let p50 = milliseconds("key-to-frame p50"), p95 = milliseconds("key-to-frame p95")
        let sortedActive = active.sorted()
        let activeText = sortedActive.isEmpty ? "-" : "min \(sortedActive[0]), median \(sortedActive[sortedActive.count / 2]), max \(sortedActive[sortedActive.count - 1])"
        markdown += "| figure | value |\n|---|---|\n"
        markdown += "| responses in flight at the keys (server) | \(activeText) |\n"
        markdown += "| key-to-frame p50 | \(p50.map { String(format: "%.1f ms", $0) } ?? "-") |\n"
        markdown += "| **key-to-frame p95** | **\(p95.map { String(format: "%.1f ms", $0) } ?? "-")** |\n"
        markdown += "\nsdgallery `--stats`:\n\n```\n\(text.trimmingCharacters(in: .whitespacesAndNewlines))\n```\n\n"
        return BenchSection(markdown: markdown, targets: [
            TargetRow(name: "key-to-frame p50 / p95 with 6 downloads running (in flight at the keys: min \(sortedActive.first ?? 0))",
                      figure: "\(p50.map { String(format: "%.1f", $0) } ?? "-") / \(p95.map { String(format: "%.1f ms", $0) } ?? "-")",
                      target: "p95 ≤ 50 ms", met: p95.map { $0 <= 50 }),
        ])
    }
}
