import Foundation
import TestSupport

/// `sdgallery-bench scroll --images DIR [--sdgallery BIN] [--quick] [--rate R] [--dwell S] [--pages N]`: scroll
/// waste. The real UI in tmux (160×48) over 1000 URLs (`/img/N.jpg`, the 16 web-size JPEGs of
/// `web/`) served at `--rate` per response (default 1 MB/s). Flings: bursts of 2–4 PageDown keys 40
/// ms apart, each followed by a pause that lasts until every image on the screen is final, plus
/// `--dwell` seconds (default 0.5) of looking at it. Waste = body bytes the server sent / bytes of
/// the distinct images that were on screen at the pauses.
enum ScrollBench {
    static func run(_ context: BenchContext, arguments: [String] = []) -> BenchSection {
        let rate = ((try? Arguments.rate("--rate", in: arguments)) ?? nil) ?? 1_000_000
        let dwell = Arguments.string("--dwell", in: arguments).flatMap(Double.init) ?? 0.5
        let count = 1000
        // `--pages N`: every burst N pages (1: paging and looking, where prefetching pays).
        let flings = Arguments.string("--pages", in: arguments).flatMap(Int.init).map { [max(1, $0)] }
            ?? [3, 2, 4, 2, 3, 2, 4, 3, 2, 3, 4, 2]
        var markdown = """
        ## Scroll waste: flinging through \(count) throttled URLs

        The real UI in tmux (160×48 pane), \(count) distinct URLs over 16 web-size JPEGs (1600×1200,
        `web/`), each response throttled to \(rate / 1000) KB/s. A fling is a burst of PageDown keys
        40 ms apart (bursts of \(flings.map(String.init).joined(separator: ", ")) pages until the end);
        after each, the script waits until every image on screen is final and then \(dwell) s more.
        Waste = body bytes sent by the server / bytes of the distinct images on screen at the pauses
        (the first screen included).


        """
        let server: BenchServer
        switch context.startServer("web", rate: rate) {
        case .success(let started): server = started
        case .failure(let failure): return BenchSection(markdown: markdown + "skipped: \(failure.reason)\n\n", targets: [])
        }
        defer {
            server.stats.writeLog()
            server.stopBlocking()
        }
        let list = context.writeList("scroll.txt", (0..<count).map { server.aliasURL($0) })
        let cache = context.freshDirectory("scroll-xdg")
        let stats = context.scratch.appendingPathComponent("scroll-stats.txt").path
        guard let tmux = TmuxSession.bench("XDG_CACHE_HOME=\(cache.path) exec \(context.sdgallery) --stats \(list) 2>\(stats)") else {
            return BenchSection(markdown: markdown + "tmux failed to start\n\n", targets: [])
        }
        defer { tmux.close() }

        var seen = Set<Int>()
        var pauses: [(keys: Int, first: Int, visible: Int, seconds: Double, sentMB: Double)] = []
        var pauseRanges: [ClosedRange<Int>] = []
        var fling = 0
        var keysSent = 0
        while true {
            let start = monotonicNow()
            let screen = waitForCompleteScreen(tmux, timeout: context.quick ? 30 : 60)
            if !screen.complete { break }
            Thread.sleep(forTimeInterval: dwell)
            let newlyVisible = Set(screen.visible)
            seen.formUnion(newlyVisible)
            if let low = screen.visible.min(), let high = screen.visible.max() { pauseRanges.append(low...high) }
            pauses.append((keysSent, screen.visible.min() ?? 0, screen.visible.count, monotonicNow() - start, Double(server.stats.snapshot.total.bytes) / 1e6))
            if (screen.visible.max() ?? 0) >= count - 1 || (context.quick && pauses.count >= 4) { break }
            let pages = flings[fling % flings.count]
            fling += 1
            server.stats.note("pause \(pauses.count): \(pauseRanges.last.map { "\($0)" } ?? "-"), fling of \(pages)")
            for _ in 0..<pages {
                server.stats.note("key PageDown")
                tmux.send("PageDown")
                keysSent += 1
                Thread.sleep(forTimeInterval: 0.04)
            }
        }
        tmux.send("q")
        tmux.waitForExit(timeout: 10)
        let sent = Double(server.stats.snapshot.total.bytes)
        let shown = Double(seen.reduce(0) { $0 + server.size(ofAlias: $1) })
        let waste = shown > 0 ? sent / shown : .nan
        let snapshot = server.stats.snapshot
        markdown += "| pause | PageDown keys so far | first image | images on screen | wait s | MB sent so far |\n|---|---|---|---|---|---|\n"
        for (i, pause) in pauses.enumerated() {
            markdown += "| \(i + 1) | \(pause.keys) | \(pause.first) | \(pause.visible) | \(String(format: "%.1f", pause.seconds)) | \(String(format: "%.1f", pause.sentMB)) |\n"
        }
        markdown += "\n| figure | value |\n|---|---|\n"
        markdown += "| distinct images on screen at pauses | \(seen.count) (\(Stats.megabytes(shown))) |\n"
        markdown += "| requests / body bytes sent by the server | \(snapshot.total.requests) / \(Stats.megabytes(sent)) |\n"
        markdown += "| **scroll waste** (sent / shown) | **\(String(format: "%.3f", waste))** |\n"
        markdown += "\n" + WasteBreakdown(snapshot: snapshot, shown: seen, pauses: pauseRanges, size: server.size(ofAlias:)).markdown
        if let text = try? String(contentsOfFile: stats, encoding: .utf8) {
            markdown += "\nsdgallery `--stats`:\n\n```\n\(text.trimmingCharacters(in: .whitespacesAndNewlines))\n```\n"
        }
        markdown += "\n"
        let complete = pauses.count >= 2
        return BenchSection(markdown: markdown, targets: [
            TargetRow(name: "scroll waste (bytes fetched / bytes shown at pauses)", figure: String(format: "%.3f", waste),
                      target: "≤ 1.02", met: complete && !waste.isNaN ? waste <= 1.02 : nil),
        ])
    }

    /// Polls the pane (every 100 ms) until every visible cell is settled, or `timeout`.
    static func waitForCompleteScreen(_ tmux: TmuxSession, timeout: Double) -> GridScreen {
        let deadline = monotonicNow() + timeout
        var screen = GridScreen()
        while monotonicNow() < deadline {
            screen = GridScreen.parse(tmux.capture())
            if screen.complete { return screen }
            usleep(100_000)
        }
        return screen
    }
}
