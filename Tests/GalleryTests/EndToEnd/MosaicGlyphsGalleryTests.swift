import Foundation
import Testing
import TestSupport

/// Text modes drawn by real terminals, read back from screenshots: a red disc on a blue square,
/// printed with `--print --renderer blocks|quadrants|sextants` in truecolor. Where the terminal draws
/// the glyphs, quadrants and sextants follow the disc's edge closer than half blocks (less blended
/// or wrong colour across the ideal circle's edge) and every pixel of the image is red, blue or a
/// blend of the two (a missing glyph shows a box or a gap in the terminal's colours). In GNOME Terminal (cell size from CSI 14t only) the half
/// blocks' disc is round: the aspect is right.
@Suite(.endToEnd, EndToEnd.needs(.convert), .serialized)
struct MosaicGlyphsGalleryTests {
    static let red = (r: 220, g: 30, b: 30), blue = (r: 30, g: 30, b: 220)

    /// How the printed disc came out: its box in pixels; the mean distance of each pixel's redness
    /// (0 blue … 1 red) from the ideal circle's (1 inside, 0 outside): blended edge cells count
    /// as partly wrong, so finer glyphs score lower; the share of pixels in neither colour nor a
    /// blend of the two (text, gaps, a missing glyph's box).
    struct Disc: CustomStringConvertible {
        var width = 0, height = 0
        var error = 1.0, other = 1.0
        var description: String {
            "\(width)×\(height) px, error \(String(format: "%.4f", error)), \(String(format: "%.2f", other * 100))% other colours"
        }
    }

    /// Reads the disc (a 240 px square, radius 112: red (220, 30, 30) on blue (30, 30, 220)) off a screenshot.
    static func measure(_ shot: String) throws -> Disc {
        let pixels = try GraphicalTerminal.pixels(of: shot)
        func blend(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
            c.g < 90 && (180...320).contains(Int(c.r) + Int(c.b))
        }
        // The image's box: rows and columns with more than 20 such pixels (not a stray one in a
        // tool bar's anti-aliased text).
        var rows = [Int](repeating: 0, count: pixels.height), columns = [Int](repeating: 0, count: pixels.width)
        for y in 0..<pixels.height {
            for x in 0..<pixels.width where blend(pixels.at(x, y)) {
                rows[y] += 1
                columns[x] += 1
            }
        }
        guard let minY = rows.firstIndex(where: { $0 > 20 }), let maxY = rows.lastIndex(where: { $0 > 20 }),
              let minX = columns.firstIndex(where: { $0 > 20 }), let maxX = columns.lastIndex(where: { $0 > 20 }),
              maxX > minX, maxY > minY else { return Disc() }
        let width = maxX - minX + 1, height = maxY - minY + 1
        let cx = Double(minX) + Double(width) / 2, cy = Double(minY) + Double(height) / 2
        let rx = Double(width) * 112 / 240, ry = Double(height) * 112 / 240
        var error = 0.0, other = 0
        for y in minY...maxY {
            for x in minX...maxX {
                let c = pixels.at(x, y)
                guard blend(c) else { other += 1; error += 1; continue }
                let dx = (Double(x) + 0.5 - cx) / rx, dy = (Double(y) + 0.5 - cy) / ry
                let ideal = dx * dx + dy * dy <= 1 ? 1.0 : 0.0
                let redness = min(1, max(0, (Double(c.r) - 30) / 190))
                error += abs(redness - ideal)
            }
        }
        let area = Double(width * height)
        return Disc(width: width, height: height, error: error / area, other: Double(other) / area)
    }

    /// Prints the disc with each of `modes` in `kind`, one after another (Return between them), and
    /// measures each.
    static func printed(_ modes: [String], in kind: GraphicalTerminal.Kind) async throws -> [String: Disc] {
        let dir = try Fixtures.temporaryDirectory("mosaic-\(kind)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try EndToEnd.run(EndToEnd.convert, ["-size", "240x240", "xc:rgb(30,30,220)", "-fill", "rgb(220,30,30)",
                                            "-draw", "circle 120,120 120,8", dir.appendingPathComponent("disc.png").path])
        try Data("disc.png\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let sdgallery = "XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --print --colors truecolor --columns 4"
        let command = modes.map { mode in
            "clear; \(sdgallery) \(mode == "auto" ? "" : "--renderer \(mode)") list.txt; touch \(mode).done; read x"
        }.joined(separator: "; ") + "; sleep 60"
        return try await Blocking.run { () throws -> [String: Disc] in
            let terminal = try GraphicalTerminal(kind: kind, command: command, directory: dir.path, displays: 60...69, size: (120, 36))
            defer { terminal.stop() }
            var discs: [String: Disc] = [:]
            for mode in modes {
                let done = dir.appendingPathComponent("\(mode).done").path
                guard GraphicalTerminal.waitUntil(timeout: 30, { FileManager.default.fileExists(atPath: done) }) else { break }
                let shot = dir.appendingPathComponent("\(kind)-\(mode).png").path
                _ = try terminal.settledScreenshot(to: shot, interval: 0.7, timeout: 30)
                ScreenOracle.keep([shot])
                discs[mode] = try measure(shot)
                try terminal.key("Return")
            }
            return discs
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: [GraphicalTerminal.Kind.kitty, .konsole, .foot])
    func quadrantsAndSextantsFollowTheEdgeCloserThanHalfBlocks(in kind: GraphicalTerminal.Kind) async throws {
        if let missing = GraphicalTerminal.missingTools(for: kind) { print("skipped \(kind): \(missing)"); return }
        let discs = try await Self.printed(["blocks", "quadrants", "sextants"], in: kind)
        print("disc in \(kind): \(discs.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "))")
        let blocks = try #require(discs["blocks"]), quadrants = try #require(discs["quadrants"]), sextants = try #require(discs["sextants"])
        for (mode, disc) in [("blocks", blocks), ("quadrants", quadrants), ("sextants", sextants)] {
            #expect(disc.width > 100 && disc.other < 0.02, "\(kind) \(mode): \(disc)")
        }
        #expect(quadrants.error < blocks.error, "\(kind): quadrants \(quadrants), blocks \(blocks)")
        #expect(sextants.error < blocks.error, "\(kind): sextants \(sextants), blocks \(blocks)")
    }

    /// GNOME Terminal answers neither TIOCGWINSZ's pixels nor CSI 16t: the cell size comes from CSI 14t
    /// (window pixels ÷ cells). The automatic half blocks draw the square image square.
    @Test(.timeLimit(.minutes(2)))
    func gnomeTerminalDrawsTheDiscRound() async throws {
        if let missing = GraphicalTerminal.missingTools(for: .gnomeTerminal) { print("skipped: \(missing)"); return }
        let disc = try #require(try await Self.printed(["auto"], in: .gnomeTerminal)["auto"])
        print("disc in gnome-terminal: \(disc)")
        let aspect = Double(disc.width) / Double(max(1, disc.height))
        #expect(abs(aspect - 1) < 0.06, "the square image shows as \(disc)")
        #expect(disc.other < 0.02, "\(disc)")
    }
}
