import Foundation
import ImageCodecs
import Locking
import TerminalGraphics
import Testing
import TestSupport
@testable import Gallery

/// The `/` filter over a long list never blocks the UI thread: the scan runs off it in chunks,
/// "k of n" counts up as results stream in, and the next key replaces the scan.
@Suite struct GalleryAppFilterTests {
    /// `gone/K.png tK` for K in 1...count, written by awk (a debug-built loop would take a minute).
    static func writeList(count: Int, to path: String) async throws {
        let script = "seq 1 \(count) | awk '{print \"gone/\" $1 \".png t\" $1}' > '\(path)'"
        _ = try await Blocking.run { try ChildProcess.run("/bin/sh", ["-c", script], timeout: 120) }
    }

    @Test(.timeLimit(.minutes(5)))
    func aTypedKeyShowsWithin50msWhileTheScanOf2MillionLinesRuns() async throws {
        let dir = try Fixtures.temporaryDirectory("filter-scan")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("list.txt").path
        // 2·10⁶ lines (51 MB; 10⁶ under a sanitizer, where ThreadSanitizer scans ten times slower than
        // the test's waits): a debug build scans them in about a second, thirty times as long as the
        // seven keys take to be typed and shown, and the count still has to be seen counting up after
        // the last key (below). 10⁷ lines proved the same in 7 s.
        let sanitized = Sanitizers.address || Sanitizers.thread
        let lines = sanitized ? 1_000_000 : 2_000_000, matches = sanitized ? 111_112 : 1_111_111
        try await Self.writeList(count: lines, to: path)
        let index = try URLListIndex.load(path: path)
        #expect(index.count == lines)
        let model = GalleryModel(items: GalleryItems(index: index), terminal: CellSize(columns: 160, rows: 37),
                                 cellPixels: PixelSize(width: 8, height: 16), columnsOverride: 6)
        let harness = try AppHarness(count: 0, model: model)
        #expect(await harness.untilUI { $0.app.framesPresented > 0 })
        let before = await harness.onUI { $0.app.keyLatencies.count } ?? 0
        // "/gone/1" key by key: every key restarts the scan; each is shown in its own frame at once.
        for (typed, key) in "/gone/1".enumerated() {
            harness.type(String(key))
            // Read on its own (the next key waits for it), as a person types.
            #expect(await harness.untilUI { $0.app.keysRead > typed })
        }
        // Results stream in: the count grows while the scan runs ("k… of n"), then settles.
        let counts = Locked<[Int]>([])
        let settled = await harness.untilUI { harness in
            let model = harness.app.model
            guard model.filter == "gone/1" else { return false }
            if model.filterScanned != nil { counts.withLock { $0.append(model.count) } }
            return model.filterScanned == nil
        }
        #expect(settled, "the scan did not finish")
        #expect(await harness.onUI { $0.app.model.count } == matches)  // 1, 10–19, 100–199, …, 10⁶–1999999 (and 10⁶ itself under a sanitizer)
        let shown = await harness.untilUI { $0.screen.lines.last?.contains("/gone/1▏ \(matches) of \(lines)") == true }
        let status = await harness.onUI { $0.screen.lines.last ?? "" } ?? ""
        #expect(shown, "\(status)")
        let partial = Set(counts.withLock { $0 }.filter { $0 > 0 && $0 < matches })
        #expect(partial.count >= 2, "no counting up: \(counts.withLock { $0 }.suffix(10))")
        let latencies = await harness.onUI { Array($0.app.keyLatencies.dropFirst(before)) } ?? []
        #expect(latencies.count >= 5)  // keys read together share one frame
        #expect(latencies.allSatisfy { $0 < 50 }, "key-to-frame ms: \(latencies)")
        print("filter key-to-frame ms: \(latencies.map { Int($0.rounded()) })")
        harness.type("\r")  // keep the filter; q clears it, q quits
        harness.type("q")
        harness.type("q")
        #expect(await harness.finish())
    }
}
