import Foundation
import Testing
import TestSupport

/// The whole product in a real terminal: sdgallery in `xterm -ti vt340` under Xvfb probes sixel
/// support, loads two solid images and draws them as sixel in their cells; a screenshot must show
/// both colours in large patches.
@Suite(.enabled(if: EndToEnd.x11ToolsPresent, "needs xvfb-run, xterm, import and convert (ImageMagick)"),
       .enabled(if: EndToEnd.binaryBuilt, "needs .build/debug/sdgallery (swift build)"))
struct XtermSixelGalleryTests {
    @Test(.timeLimit(.minutes(1)))
    func galleryDrawsSixelImagesInXterm() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-xterm")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await Blocking.run {
            try EndToEnd.makeImages(in: dir, [("red.png", "#e01010"), ("blue.png", "#1030e0")], size: "400x300")
        }
        try Data("red.png Red\nblue.png Blue\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let shot = dir.appendingPathComponent("shot.png").path
        let script = dir.appendingPathComponent("run.sh")
        try """
        #!/bin/sh
        cd \(dir.path)
        xterm -ti vt340 -xrm 'XTerm*decTerminalID: vt340' -xrm 'XTerm*numColorRegisters: 256' \\
          -fa Monospace -fs 10 -geometry 100x30+0+0 \\
          -e sh -c 'XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --columns 2 list.txt; sleep 10' &
        sleep 6
        import -window root \(shot)
        kill %1 2>/dev/null
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let display = "\(200 + Int.random(in: 0..<700))"
        _ = try await Blocking.run {
            try EndToEnd.run("/usr/bin/xvfb-run", ["-n", display, "-a", "-s", "-screen 0 1024x768x24", script.path], timeout: 40)
        }
        #expect(FileManager.default.fileExists(atPath: shot), "no screenshot")
        // Count pixels near each colour (ImageMagick: fuzz match, then the mean of the mask).
        func share(_ colour: String) async throws -> Double {
            let out = try await Blocking.run {
                try EndToEnd.run("/usr/bin/convert", [shot, "-fuzz", "12%", "-fill", "white", "-opaque", colour,
                                                      "-fill", "black", "+opaque", "white", "-format", "%[fx:mean]", "info:"])
            }
            return Double(out.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let red = try await share("#e01010")
        let blue = try await share("#1030e0")
        // Each image fills a grid cell of a 100×30 terminal: a few percent of the 1024×768 screen.
        #expect(red > 0.02, "red image not drawn (share \(red))")
        #expect(blue > 0.02, "blue image not drawn (share \(blue))")
    }
}

extension EndToEnd {
    /// Whether Xvfb, xterm and ImageMagick are installed (scripts/setup installs them).
    static var x11ToolsPresent: Bool {
        ["/usr/bin/xvfb-run", "/usr/bin/xterm", "/usr/bin/import", "/usr/bin/convert"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
