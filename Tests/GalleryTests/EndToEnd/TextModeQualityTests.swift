import Foundation
import Testing
import TestSupport

/// Quadrants and sextants render in real terminals and show more of the image than half blocks at
/// the same cell count: `scripts/bench-text-modes` shows each rendering in the terminal, screenshots
/// it, and compares it with the image downscaled to the same pixels (PSNR, SSIM). kitty draws the
/// sextant glyphs itself; xterm's Monospace font (DejaVu Sans Mono) has no sextants, so only
/// quadrants are checked there.
@Suite(.endToEnd, EndToEnd.needs(.python3))
struct TextModeQualityTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the script for one image in `terminal`: mode → (PSNR, SSIM).
    static func measure(_ terminal: String) throws -> (figures: [String: (psnr: Double, ssim: Double)], output: String) {
        let script = repository.appendingPathComponent("scripts/bench-text-modes").path
        var environment = ChildProcess.testEnvironment
        environment["SDGALLERY"] = EndToEnd.binary.path
        environment["BENCH_IMAGES"] = repository.appendingPathComponent("assets/demo/13-brick.jpg").path
        let result = try ChildProcess.run(script, [terminal, "60"], timeout: 240, environment: environment)
        var figures: [String: (Double, Double)] = [:]
        for line in result.out.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 5, let psnr = Double(fields[3]), let ssim = Double(fields[4]) else { continue }
            figures[String(fields[1])] = (psnr, ssim)
        }
        return (figures, result.out + result.err)
    }

    @Test(.timeLimit(.minutes(5)), .enabled(if: GraphicalTerminal.missingTools(for: .kitty) == nil, "kitty, Xvfb or ImageMagick missing"))
    func quadrantsAndSextantsBeatHalfBlocksInKitty() async throws {
        let (figures, output) = try await Blocking.run { try Self.measure("kitty") }
        let blocks = try #require(figures["blocks"], "no figures: \(output)")
        let quadrants = try #require(figures["quadrants"])
        let sextants = try #require(figures["sextants"])
        #expect(quadrants.psnr > blocks.psnr && quadrants.ssim > blocks.ssim, "\(figures)")
        #expect(sextants.psnr > blocks.psnr && sextants.ssim > blocks.ssim, "\(figures)")
    }

    @Test(.timeLimit(.minutes(5)), .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "xterm, Xvfb or ImageMagick missing"))
    func quadrantsBeatHalfBlocksInXterm() async throws {
        let (figures, output) = try await Blocking.run { try Self.measure("xterm") }
        let blocks = try #require(figures["blocks"], "no figures: \(output)")
        let quadrants = try #require(figures["quadrants"])
        #expect(quadrants.psnr > blocks.psnr && quadrants.ssim > blocks.ssim, "\(figures)")
    }
}
