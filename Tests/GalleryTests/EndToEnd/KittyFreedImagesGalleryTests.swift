import Foundation
import Testing
import TestSupport

/// kitty 0.26 frees, with any `a=d,d=I`, every image that has no placement at that moment. The
/// gallery frees images the encoded-output cache drops; screens paged past and then returned to were
/// placed again without an upload, kitty answered `ENOENT` and the cells stayed blank until Ctrl-L.
/// Checked with kitty's own replies (placements ask `q=1`; `--stats` counts the errors) and the screen.
@Suite(.endToEnd, EndToEnd.needs(.kitty), .serialized)
struct KittyFreedImagesGalleryTests {
    /// `count` noisy 160×120 PNGs (they compress badly, so a few screens overflow a small encoded
    /// cache) in a list.
    static func noisyList(in dir: URL, count: Int) throws {
        var generator = SystemRandomNumberGenerator()
        var lines: [String] = []
        for index in 0..<count {
            let base = (UInt8.random(in: 60...200, using: &generator), UInt8.random(in: 60...200, using: &generator))
            var pixels = [UInt8](repeating: 255, count: 160 * 120 * 4)
            for pixel in 0..<(160 * 120) {
                pixels[pixel * 4] = base.0 &+ UInt8.random(in: 0...40, using: &generator)
                pixels[pixel * 4 + 1] = base.1 &+ UInt8.random(in: 0...40, using: &generator)
                pixels[pixel * 4 + 2] = UInt8.random(in: 0...255, using: &generator)
            }
            let file = dir.appendingPathComponent("noise\(index).png")
            try TestPNG.make(width: 160, height: 120, rgba: pixels).write(to: file)
            lines.append("\(file.path) Noise\(index)")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
    }

    @Test(.timeLimit(.minutes(4)))
    func screensComeBackAfterTheirImagesWereFreed() async throws {
        let dir = try Fixtures.temporaryDirectory("kitty-freed")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.noisyList(in: dir, count: 240)
        // --memory-limit 8: the encoded-output cache keeps 2 MB (about 30 pictures), so paging frees.
        let log = SettleLog(directory: dir.path)
        let command = "cd \(dir.path) && \(log.assignment) XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --stats --memory-limit 8 list.txt "
            + "2> stats.txt; echo $? > exit.txt; sleep 600"
        let shot = dir.appendingPathComponent("kitty-freed.png").path
        let (share, settled) = try await Blocking.run { () throws -> (Double, Bool) in
            let kitty = try GraphicalTerminal(kind: .kitty, command: command, directory: "/tmp", displays: 60...69, background: "#000000", settleLog: log)
            defer { kitty.stop() }
            _ = try kitty.settledScreenshot(to: shot, interval: 1.0)
            for _ in 0..<5 {
                try kitty.key("Next")
                _ = try kitty.settledScreenshot(to: shot, interval: 1.0)
            }
            try kitty.key("Prior")
            _ = try kitty.settledScreenshot(to: shot, interval: 1.0)
            try kitty.key("Prior")
            let settled = try kitty.settledScreenshot(to: shot, interval: 1.0)
            let share = try Self.nonBlackShare(shot)
            try kitty.type("q")
            _ = GraphicalTerminal.waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: dir.appendingPathComponent("exit.txt").path) }
            return (share, settled)
        }
        ScreenOracle.keep([shot])
        #expect(settled, "the screen did not settle")
        let stats = (try? String(contentsOf: dir.appendingPathComponent("stats.txt"), encoding: .utf8)) ?? ""
        let errors = stats.firstMatch(of: /graphics errors +(\d+)/).flatMap { Int($0.1) }
        #expect(errors == 0, "kitty refused placements (ENOENT: images freed behind the gallery's back): \(stats)")
        // The screen returned to shows its images: the noise covers much of the window (blank: ~0.05).
        #expect(share > 0.25, "images missing after paging back: non-black share \(share)")
    }

    /// The share of the screenshot's pixels that are not (near) black.
    static func nonBlackShare(_ shot: String) throws -> Double {
        let out = try EndToEnd.run("/usr/bin/convert", [shot, "-crop", "1500x800+0+0", "+repage", "-fuzz", "8%", "-fill", "black",
                                                       "-opaque", "black", "-fill", "white", "+opaque", "black", "-format", "%[fx:mean]", "info:"])
        return Double(out.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
