import Foundation
import Testing
import TestSupport

/// The whole product in a real terminal: sdgallery in `xterm -ti vt340` under Xvfb (through the
/// `GraphicalTerminal` harness) probes sixel support and draws the images as sixel. Screenshots are
/// taken once the screen has settled (two shots that agree), never after a fixed sleep. Set
/// `SDG_KEEP_SHOTS=DIR` to keep the screenshots for a look.
@Suite(.endToEnd, EndToEnd.needs(.xterm), .serialized)
struct XtermSixelGalleryTests {
    /// Share of the pixels of `shot` within `fuzz` of `colour` (ImageMagick: fuzz match, then the mean of the mask).
    static func share(_ shot: String, _ colour: String, fuzz: String = "12%") throws -> Double {
        let out = try EndToEnd.run("/usr/bin/convert", [shot, "-fuzz", fuzz, "-fill", "white", "-opaque", colour,
                                                       "-fill", "black", "+opaque", "white", "-format", "%[fx:mean]", "info:"])
        return Double(out.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    static func gallery(_ dir: URL, _ arguments: String) -> String {
        "\(SettleLog(directory: dir.path).assignment) XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) \(arguments); sleep 60"
    }

    @Test(.timeLimit(.minutes(2)))
    func galleryDrawsSixelImagesInXterm() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-xterm")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await EndToEnd.makeImagesAsync(in: dir, [("red.png", "#e01010"), ("blue.png", "#1030e0")], size: "400x300")
        try Data("red.png Red\nblue.png Blue\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let shot = dir.appendingPathComponent("xterm-two.png").path
        try await Blocking.run {
            let terminal = try GraphicalTerminal(kind: .xterm, command: Self.gallery(dir, "--columns 2 list.txt"), directory: dir.path,
                                                 size: (100, 30), settleLog: SettleLog(directory: dir.path))
            defer { terminal.stop() }
            try terminal.settledScreenshot(to: shot)
        }
        ScreenOracle.keep([shot])
        let red = try await Blocking.run { try Self.share(shot, "#e01010") }
        let blue = try await Blocking.run { try Self.share(shot, "#1030e0") }
        // Each image fills a grid cell of a 100×30 terminal: a few percent of the 1600×1000 screen.
        #expect(red > 0.01, "red image not drawn (share \(red))")
        #expect(blue > 0.01, "blue image not drawn (share \(blue))")
    }

    @Test(.timeLimit(.minutes(2)))
    func noBlackPixelsOnAGreyBackground() async throws {
        // The old renderer padded each sixel to a multiple of 6 rows with black (xterm does not answer
        // OSC 11, so the background was assumed black) and filled transparency with black.
        let dir = try Fixtures.temporaryDirectory("gallery-xterm-grey")
        defer { try? FileManager.default.removeItem(at: dir) }
        let colours = ["#e01010", "#10c020", "#1030e0", "#e0c010", "#c010c0", "#10c0c0"]
        try await EndToEnd.makeImagesAsync(in: dir, colours.enumerated().map { ("c\($0.offset).png", $0.element) }, size: "401x299")
        try await Blocking.run {
            _ = try EndToEnd.run("/usr/bin/convert", ["-size", "400x300", "xc:none", "-fill", "#e01010", "-draw", "rectangle 0,0 199,299",
                                                      dir.appendingPathComponent("half.png").path])
        }
        let names = colours.indices.map { "c\($0).png C\($0)" } + ["half.png Half"]
        try Data((names.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        let shot = dir.appendingPathComponent("xterm-grey.png").path
        try await Blocking.run {
            let terminal = try GraphicalTerminal(kind: .xterm, command: Self.gallery(dir, "--columns 4 list.txt"), directory: dir.path,
                                                 background: "#808080", size: (120, 36), settleLog: SettleLog(directory: dir.path))
            defer { terminal.stop() }
            // The grid inside the xterm window (120×36 cells of about 8×17 px), without the status bar.
            try terminal.settledScreenshot(to: shot, crop: "950x580+4+4")
        }
        ScreenOracle.keep([shot])
        let black = try await Blocking.run { try Self.share(shot, "#000000", fuzz: "8%") }
        let red = try await Blocking.run { try Self.share(shot, "#e01010") }
        #expect(red > 0.005, "images not drawn (red share \(red))")
        // Captions are text in the default (black) foreground: allow their glyphs, not image-wide rows.
        #expect(black < 0.01, "black pixels: share \(black) (\(shot))")
    }

    @Test(.timeLimit(.minutes(3)))
    func scrollingAndPagingLeaveNothingBehindInXterm() async throws {
        try await ScreenOracle.afterKeys(.xterm, keys: [["Next", "Next", "Prior"], ["j", "j", "j"], ["k", "k", "k", "k", "k"],
                                                   ["shift+g"], ["g"], ["j", "j", "j", "j", "j", "j"]], label: "scroll") { shot in
            // The oracle alone would pass on a screen without images: they are all there (one
            // missing cell, as when a slot's stale paint request kept a placeholder: 0.29).
            let share = try ScreenOracle.imageShare(shot, crop: "880x540+0+0")
            #expect(share > 0.32, "images missing: share \(share)")
        }
    }

    static let viewKeys = [["l", "Return"], ["q"], ["v"], ["v"], ["j", "Return"], ["Escape"]]

    @Test(.timeLimit(.minutes(3)))
    func fullViewAndListToggleLeaveNothingBehindInXterm() async throws {
        try await ScreenOracle.afterKeys(.xterm, keys: Self.viewKeys, label: "views")
    }

    @Test(.timeLimit(.minutes(3)), .enabled(if: GraphicalTerminal.missingTools(for: .mlterm) == nil, "needs mlterm"))
    func scrollingAndViewsLeaveNothingBehindInMlterm() async throws {
        try await ScreenOracle.afterKeys(.mlterm, keys: [["Next", "Next", "Prior"], ["j", "j", "j"], ["k", "k", "k", "k", "k"]] + Self.viewKeys,
                                    label: "mlterm")
    }

    @Test(.timeLimit(.minutes(3)), .enabled(if: GraphicalTerminal.missingTools(for: .kitty) == nil, "needs kitty"))
    func scrollingAndViewsLeaveNothingBehindInKitty() async throws {
        try await ScreenOracle.afterKeys(.kitty, keys: [["Next", "Next", "Prior"], ["j", "j", "j"], ["k", "k", "k", "k", "k"]] + Self.viewKeys,
                                    label: "kitty") { shot in
            // Every cell shows its image (0.41); a slot's stale paint request left grey placeholders (0.12–0.20).
            let share = try ScreenOracle.imageShare(shot, crop: "1500x800+0+0")
            #expect(share > 0.3, "images missing in kitty: share \(share)")
        }
    }
}
