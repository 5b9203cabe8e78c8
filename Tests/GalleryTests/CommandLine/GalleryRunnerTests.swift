import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import Gallery

@Suite struct GalleryRunnerTests {
    /// Components whose loader makes a solid image per entry: green for http URLs (a stand-in for the
    /// network layer), and whose probe says "probe ok".
    func components() -> GalleryComponents {
        var parts = GalleryComponents.live(GalleryOptions())
        parts.loadForPrint = { entry, _ in
            guard case .remote = entry.location else { return .failure(LoadFailure(message: "no")) }
            let pixels = Array((0..<(8 * 8)).map { _ in [UInt8(0), 200, 0, 255] }.joined())
            return .success((Image(width: 8, height: 8, pixels: pixels), ImageDetails(pixelSize: PixelSize(width: 8, height: 8), byteCount: 10)))
        }
        parts.probeReport = { _ in "probe ok" }
        return parts
    }

    @Test func printUsesTheInjectedLoaderAndProbe() throws {
        let dir = try Fixtures.temporaryDirectory("gallery-runner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.txt")
        try Data("https://e.example/a.png Remote A\n/missing.png\nnot a scheme:x\n".utf8).write(to: list)
        var options = GalleryOptions()
        options.inputs = [list.path]
        options.printSheet = true
        options.colors = .truecolor
        options.columns = 2
        var out = "", err = ""
        let status = GalleryRunner.run(options, components: components(), stdout: { out += $0 }, stderr: { err += $0 })
        #expect(status == 0)
        #expect(out.contains("\u{1B}[38;2;0;200;0;48;2;0;200;0m▀"))
        #expect(out.contains("Remote A"))
        #expect(out.contains("✗ no"))
        #expect(err.isEmpty)

        var probe = GalleryOptions()
        probe.probe = true
        out = ""
        #expect(GalleryRunner.run(probe, components: components(), stdout: { out += $0 }, stderr: { err += $0 }) == 0)
        #expect(out == "probe ok\n")
    }

    /// `--decode-memory` sets the process-wide decode budget, in the sheet as in the gallery: an image
    /// whose decode alone needs more says so in its cell.
    @Test func decodeMemoryBoundsTheSheetsDecodes() throws {
        let dir = try Fixtures.temporaryDirectory("gallery-runner")
        defer {
            try? FileManager.default.removeItem(at: dir)
            DecodeMemory.shared.limit = DecodeMemory.defaultLimit
        }
        let big = dir.appendingPathComponent("big.png")
        try TestPNG.solid(width: 1500, height: 1500, rgba: (10, 200, 10, 255)).write(to: big)
        var options = GalleryOptions()
        options.inputs = [big.path]
        options.printSheet = true
        options.columns = 1
        options.noDiskCache = true
        options.decodeMemoryMB = 4
        var out = "", err = ""
        let status = GalleryRunner.run(options, components: GalleryComponents.live(options), stdout: { out += $0 }, stderr: { err += $0 })
        #expect(status == 0)
        #expect(DecodeMemory.shared.limit == 4 << 20)
        #expect(out.contains("too large for the memory budget (9 MB > 4 MB)"), "\(out.suffix(400))")  // 1500² RGBA, the cell's target
    }

    /// A piped `--print` with `options` over two entries of the same URL and one that fails.
    func printPiped(_ configure: (inout GalleryOptions) -> Void) throws -> (status: Int32, out: String, err: String) {
        let dir = try Fixtures.temporaryDirectory("gallery-runner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.txt")
        try Data("https://e.example/a.png A\nhttps://e.example/a.png Again\n/missing.png\n".utf8).write(to: list)
        var options = GalleryOptions()
        options.inputs = [list.path]
        options.printSheet = true
        options.columns = 3
        configure(&options)
        var out = "", err = ""
        let status = GalleryRunner.run(options, components: components(), stdout: { out += $0 }, stderr: { err += $0 })
        return (status, out, err)
    }

    @Test func anExplicitRendererWinsWhenPiped() throws {
        let sixel = try printPiped { $0.renderer = .sixel }
        #expect(sixel.status == 0 && sixel.err.isEmpty)
        #expect(sixel.out.components(separatedBy: "\u{1B}P").count - 1 == 2, "two sixel images")
        #expect(!sixel.out.contains("▀") && sixel.out.contains("Again"))
        let kitty = try printPiped { $0.renderer = .kitty }
        let commands = KittyCommand.parse(Array(kitty.out.utf8))
        let places = commands.filter { $0.keys["a"] == "p" }
        #expect(places.count == 2)
        #expect(Set(places.compactMap { $0.keys["p"] }).count == 2, "one placement per entry")
        let sent = KittyCommand.transmitted(commands)
        #expect(!sent.isEmpty && sent.values.allSatisfy { $0.data.count == $0.data.count / 3 * 3 && !$0.data.isEmpty })
        #expect(Set(places.compactMap { $0.keys["i"] }).isSubset(of: Set(sent.keys.map(String.init))))
        // Without a choice, piped output stays text.
        let text = try printPiped { $0.colors = .truecolor }
        #expect(text.out.contains("▀") && !text.out.contains("\u{1B}P") && !text.out.contains("\u{1B}_G"))
    }

    @Test func aKittyImageShownTwiceInASheetIsSentOnce() throws {
        // The memory cache hands both entries the same image: sending its id again would replace it
        // and delete the first placement.
        let pixels = Array((0..<(8 * 8)).map { _ in [UInt8(200), 30, 90, 255] }.joined())
        let shared = Image(width: 8, height: 8, pixels: pixels)
        var parts = components()
        parts.loadForPrint = { entry, _ in
            guard case .remote = entry.location else { return .failure(LoadFailure(message: "no")) }
            return .success((shared, ImageDetails(pixelSize: PixelSize(width: 8, height: 8), byteCount: 10)))
        }
        let dir = try Fixtures.temporaryDirectory("gallery-runner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.txt")
        try Data("https://e.example/a.png A\nhttps://e.example/a.png Again\n".utf8).write(to: list)
        var options = GalleryOptions()
        options.inputs = [list.path]
        options.printSheet = true
        options.renderer = .kitty
        var out = ""
        #expect(GalleryRunner.run(options, components: parts, stdout: { out += $0 }, stderr: { _ in }) == 0)
        let commands = KittyCommand.parse(Array(out.utf8))
        #expect(KittyCommand.transmitted(commands).count == 1)
        #expect(commands.filter { $0.keys["a"] == "t" }.count == 1)
        #expect(commands.filter { $0.keys["a"] == "p" }.count == 2)
    }

    @Test func optionsASheetCannotUseAreWarnedAboutAndStatsArePrinted() throws {
        let run = try printPiped {
            $0.viewMode = .list
            $0.stats = true
            $0.animate = .off
        }
        #expect(run.status == 0)
        #expect(run.err.hasPrefix("sdgallery: --list does not apply to --print (the sheet is a grid)\n"))
        #expect(run.err.contains("sdgallery: --animate does not apply to --print (a sheet is written once: it shows first frames)\n"))
        #expect(run.err.contains("sheet: 3 entries, 1 failed"))
    }

    @Test func unreadableAndEmptyListsExitWith1() throws {
        var options = GalleryOptions()
        options.inputs = ["/nonexistent/list.txt"]
        var err = ""
        #expect(GalleryRunner.run(options, stdout: { _ in }, stderr: { err += $0 }) == 1)
        #expect(err == "sdgallery: cannot read '/nonexistent/list.txt': No such file or directory\n")
        let dir = try Fixtures.temporaryDirectory("gallery-runner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("bad.txt")
        try Data("ftp://x/y\n# nothing else\n".utf8).write(to: list)
        options.inputs = [list.path]
        err = ""
        #expect(GalleryRunner.run(options, stdout: { _ in }, stderr: { err += $0 }) == 1)
        #expect(err == "sdgallery: line 1: unsupported scheme 'ftp': ftp://x/y\nsdgallery: no usable entries in the list\n")
    }
}

/// `--animate=off|on|N`.
@Suite struct AnimationSettingTests {
    @Test func offOnAndARateParse() {
        #expect(AnimationSetting(parsing: "off") == .off)
        #expect(AnimationSetting(parsing: "ON") == .on)
        #expect(AnimationSetting(parsing: "500k") == AnimationSetting(cellsPlay: true, bytesPerSecond: 500_000))
        #expect(AnimationSetting(parsing: "2M")?.bytesPerSecond == 2_000_000)
        #expect(AnimationSetting(parsing: "sometimes") == nil)
        #expect(AnimationSetting(parsing: "-5") == nil)
        #expect(GalleryOptions().animate == .on)
    }
}
