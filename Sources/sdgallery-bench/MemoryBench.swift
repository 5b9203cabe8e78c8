import Foundation
import TestSupport

/// `sdgallery-bench memory --images DIR [--sdgallery BIN] [--quick]`: peak RSS of the real UI (tmux,
/// 160×48) paging through 2000 distinct URLs of 12 MP JPEGs (`/img/N.jpg` over the 16 files of
/// `baseline/`, unthrottled), one PageDown at a time once the screen is complete; VmHWM from
/// `/proc/PID/status` before quitting. Then 100 cells of one URL: the UI shows the list (first
/// screen, then `G` to the end) and the server counts the requests for that URL; `--print` of the
/// same list likewise.
enum MemoryBench {
    static func run(_ context: BenchContext) -> BenchSection {
        var markdown = "## Memory and duplicate URLs\n\n"
        var targets: [TargetRow] = []
        let server: BenchServer
        switch context.startServer("baseline") {
        case .success(let started): server = started
        case .failure(let failure): return BenchSection(markdown: markdown + "skipped: \(failure.reason)\n\n", targets: [])
        }
        defer { server.stopBlocking() }
        let (rssMarkdown, rssTarget) = peakRSS(context, server: server)
        markdown += rssMarkdown
        targets.append(rssTarget)
        server.stats.reset()
        let (dupMarkdown, dupTargets) = duplicates(context, server: server)
        markdown += dupMarkdown
        targets += dupTargets
        return BenchSection(markdown: markdown, targets: targets)
    }

    static func peakRSS(_ context: BenchContext, server: BenchServer) -> (String, TargetRow) {
        let count = context.quick ? 600 : 2000
        let perScreen = 4.0
        let list = context.writeList("memory.txt", (0..<count).map { server.aliasURL($0) })
        let cache = context.freshDirectory("memory-xdg")
        let stats = context.scratch.appendingPathComponent("memory-stats.txt").path
        var markdown = """
        ### Peak RSS browsing \(count) × 12 MP JPEGs

        The UI in tmux pages through \(count) distinct URLs (16 files of 4000×3000, \(Stats.megabytes(Double(SheetBench.totalSize(context.files("baseline"))))) in all,
        served unthrottled), one PageDown each time the screen is complete or after \(Int(perScreen)) s (a browsing pace;
        unfinished cells are cancelled).
        Peak = `VmHWM` of the sdgallery process read before it quits.


        """
        guard let tmux = TmuxSession.bench("XDG_CACHE_HOME=\(cache.path) exec \(context.sdgallery) --stats \(list) 2>\(stats)"), let pid = tmux.pid else {
            return (markdown + "tmux failed\n\n", TargetRow(name: "peak RSS", figure: "-", target: "≤ 150 MB", met: nil))
        }
        defer { tmux.close() }
        let start = monotonicNow()
        var screens = 0, incomplete = 0, lastSeen = -1
        while true {
            let screen = ScrollBench.waitForCompleteScreen(tmux, timeout: perScreen)
            screens += 1
            if !screen.complete { incomplete += 1 }
            let last = screen.visible.max() ?? -1
            if last >= count - 1 || (last == lastSeen && !screen.complete) { break }
            lastSeen = last
            tmux.send("PageDown")
            usleep(150_000)
        }
        let walk = monotonicNow() - start
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func kilobytes(_ field: String) -> Double? {
            status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                .flatMap { Double($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        }
        let hwm = kilobytes("VmHWM").map { $0 * 1024 } ?? .nan
        let rss = kilobytes("VmRSS").map { $0 * 1024 } ?? .nan
        tmux.send("q")
        tmux.waitForExit(timeout: 10)
        let served = server.stats.snapshot.total
        markdown += "| figure | value |\n|---|---|\n"
        markdown += "| screens walked (not complete after \(Int(perScreen)) s) | \(screens) (\(incomplete)) in \(String(format: "%.0f", walk)) s |\n"
        markdown += "| requests / bytes served | \(served.requests) / \(Stats.megabytes(Double(served.bytes))) |\n"
        markdown += "| RSS at the end | \(Stats.megabytes(rss)) |\n"
        markdown += "| **peak RSS (VmHWM)** | **\(Stats.megabytes(hwm))** |\n"
        if let text = try? String(contentsOfFile: stats, encoding: .utf8) {
            markdown += "\nsdgallery `--stats`:\n\n```\n\(text.trimmingCharacters(in: .whitespacesAndNewlines))\n```\n"
        }
        markdown += "\n"
        return (markdown, TargetRow(name: "peak RSS browsing \(count) × 12 MP", figure: Stats.megabytes(hwm), target: "≤ 150 MB",
                                    met: hwm.isNaN ? nil : hwm <= 150e6))
    }

    static func duplicates(_ context: BenchContext, server: BenchServer) -> (String, [TargetRow]) {
        let name = server.names[0]
        let path = "/files/\(name)"
        let list = context.writeList("duplicates.txt", Array(repeating: "http://127.0.0.1:\(server.port)\(path)", count: 100))
        var markdown = "### 100 cells of one URL\n\nA list of 100 identical lines (`\(path)`, 12 MP): requests the server received for it.\n\n"
        markdown += "| mode | requests | images on the last screen |\n|---|---|---|\n"
        var rows: [TargetRow] = []

        let cache = context.freshDirectory("dup-xdg")
        if let tmux = TmuxSession.bench("XDG_CACHE_HOME=\(cache.path) exec \(context.sdgallery) \(list)") {
            _ = ScrollBench.waitForCompleteScreen(tmux, timeout: 30)
            tmux.send("G")
            usleep(300_000)
            let last = ScrollBench.waitForCompleteScreen(tmux, timeout: 30)
            tmux.send("q")
            tmux.waitForExit(timeout: 10)
            tmux.close()
            let requests = server.stats.snapshot.paths[path]?.requests ?? 0
            markdown += "| UI (first screen, then `G`) | \(requests) | \(last.visible.count), \(last.complete ? "all final" : "not all final") |\n"
            rows.append(TargetRow(name: "requests for 100 cells of one URL (UI)", figure: "\(requests)", target: "1",
                                  met: last.complete ? requests == 1 : nil))
        }
        server.stats.reset()
        let printCache = context.freshDirectory("dup-print-xdg")
        var runner = PtyRunner()
        runner.environment["XDG_CACHE_HOME"] = printCache.path
        if let outcome = try? runner.run([context.sdgallery, "--print", list]) {
            let requests = server.stats.snapshot.paths[path]?.requests ?? 0
            markdown += "| `--print` | \(requests) | exit \(outcome.status), \(Stats.seconds(outcome.seconds)) |\n"
            rows.append(TargetRow(name: "requests for 100 cells of one URL (`--print`)", figure: "\(requests)", target: "1",
                                  met: outcome.status == 0 ? requests == 1 : nil))
        }
        return (markdown + "\n", rows)
    }
}
