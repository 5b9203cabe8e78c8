import Foundation
import ImageCodecs
import TestSupport
import Testing
@testable import TerminalGraphics

/// Our sixel bytes in a real `xterm -ti vt340` (under Xvfb, through `GraphicalTerminal`): the image
/// lands at the home cell at exactly its encoded size and colour.
@Suite(.endToEnd, .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "xterm, Xvfb, xdotool or ImageMagick missing"))
struct SixelXtermEndToEndTests {
    @Test(.timeLimit(.minutes(2)))
    func solidImageAppearsInXterm() async throws {
        let colour = (r: 200, g: 40, b: 60)
        let image = TestImages.solid(width: 240, height: 120, r: UInt8(colour.r), g: UInt8(colour.g), b: UInt8(colour.b))
        // 12×3 cells of 10×20 px → a 120×60 box; the image is scaled down to fill it.
        let out = try SixelRenderer().render(image, cells: CellSize(columns: 12, rows: 3), cellPixelSize: PixelSize(width: 10, height: 20))
        #expect(out.pixelSize == PixelSize(width: 120, height: 60))

        let dir = try Fixtures.temporaryDirectory("sdgallery-e2e-sixel")
        try Data(out.bytes).write(to: dir.appendingPathComponent("image.six"))
        let shot = dir.appendingPathComponent("shot.png").path
        let pixels = try await Blocking.run {
            let terminal = try GraphicalTerminal(
                kind: .xterm, command: "printf '\\033[?25l\\033[H\\033[2J'; cat image.six; touch ready; sleep 60",
                directory: dir.path, background: "black", size: (60, 20))
            defer { terminal.stop() }
            _ = GraphicalTerminal.waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: dir.appendingPathComponent("ready").path) }
            try terminal.settledScreenshot(to: shot, crop: "640x480+0+0", interval: 0.5, timeout: 30)
            return try GraphicalTerminal.pixels(of: shot)
        }

        // Bounding box of pixels within ±6 of the colour.
        var (minX, minY, maxX, maxY, matches) = (Int.max, Int.max, -1, -1, 0)
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let p = pixels.at(x, y)
                if abs(Int(p.r) - colour.r) <= 6 && abs(Int(p.g) - colour.g) <= 6 && abs(Int(p.b) - colour.b) <= 6 {
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                    matches += 1
                }
            }
        }
        let outside = pixels.at(200, 70)
        let checks = [
            // xterm draws the image from the home cell: 1-pixel window border + 2-pixel internal border.
            (minX == 3 && minY == 3, "image starts at (\(minX), \(minY))"),
            (maxX - minX + 1 == 120 && maxY - minY + 1 == 60, "image is \(maxX - minX + 1)×\(maxY - minY + 1)"),
            (matches == 120 * 60, "\(matches) matching pixels"),
            ([outside.r, outside.g, outside.b] == [0, 0, 0], "background outside the image is not black"),
        ]
        for (ok, message) in checks { #expect(ok, "\(message); screenshot kept in \(shot)") }
        if checks.allSatisfy(\.0) { try? FileManager.default.removeItem(at: dir) }
    }
}
