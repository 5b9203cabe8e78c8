import Foundation
import Testing
import TestSupport

/// The real binary when the disk cache cannot do its job: the images still show, and one line says
/// the disk cache is off or degraded (the status bar in the gallery, stderr with `--print`). Two
/// processes sharing one cache directory store the same keys without a wrong or torn image.
@Suite(.endToEnd, EndToEnd.needs())
struct DiskFaultGalleryTests {
    static let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 200, 0), (0, 0, 255), (250, 200, 0), (120, 0, 160), (0, 180, 180)]

    /// A loopback server with one PNG per colour, and a list of them.
    static func serve() async throws -> (LoopbackServer, URL) {
        let server = try await LoopbackServer.start()
        var lines: [String] = []
        for (i, c) in colours.enumerated() {
            server.route("/\(i).png", .ok(TestPNG.solid(width: 40, height: 30, rgba: (c.0, c.1, c.2, 255)), contentType: "image/png"))
            lines.append("\(server.url("/\(i).png").absoluteString) C\(i)")
        }
        let dir = try Fixtures.temporaryDirectory("gallery-diskfault")
        let list = dir.appendingPathComponent("list.txt")
        try Data(lines.joined(separator: "\n").utf8).write(to: list)
        return (server, list)
    }

    static func printSheet(_ list: URL, cacheDir: String) throws -> (status: Int32, out: String, err: String) {
        try EndToEnd.run(EndToEnd.binary.path, ["--print", "--colors", "truecolor", "--columns", "3", "--cache-dir", cacheDir, list.path], timeout: 60)
    }

    @Test(.timeLimit(.minutes(1)))
    func printWithAnUnusableCacheDirectoryShowsEveryImageAndSaysWhy() async throws {
        let (server, list) = try await Self.serve()
        let notADirectory = list.path  // a regular file where the cache directory should be
        let result = try await Blocking.run { try Self.printSheet(list, cacheDir: notADirectory) }
        #expect(result.status == 0, "\(result.err)")
        for c in Self.colours { #expect(result.out.contains("2;\(c.0);\(c.1);\(c.2)m"), "colour \(c) missing") }
        #expect(result.err.contains("disk cache off: not a directory"), "stderr: \(result.err)")
        await server.stop()
    }

    @Test(.timeLimit(.minutes(2)))
    func twoProcessesSharingACacheDirectoryStoreTheSameKeysCleanly() async throws {
        let (server, list) = try await Self.serve()
        let cache = try Fixtures.temporaryDirectory("gallery-sharedcache").appendingPathComponent("c").path
        async let first = Blocking.run { try Self.printSheet(list, cacheDir: cache) }
        async let second = Blocking.run { try Self.printSheet(list, cacheDir: cache) }
        let (a, b) = try await (first, second)
        #expect(a.status == 0 && b.status == 0, "\(a.status) \(a.err) / \(b.status) \(b.err)")
        // The same pictures (captions may differ: an image one process read from the other's
        // decoded-thumbnail entry has no byte count).
        #expect(Self.pictures(a.out) == Self.pictures(b.out))
        #expect(!a.err.contains("disk cache") && !b.err.contains("disk cache"), "\(a.err) \(b.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(!names.contains { $0.hasPrefix(".tmp") }, "temp files left: \(names)")
        // A third run reads what the two wrote: the same sheet.
        let third = try await Blocking.run { try Self.printSheet(list, cacheDir: cache) }
        #expect(third.status == 0 && Self.pictures(third.out) == Self.pictures(a.out), "\(third.err)")
        await server.stop()
    }

    /// The image rows of a sheet (half-block lines), without captions.
    static func pictures(_ sheet: String) -> [Substring] { sheet.split(separator: "\n").filter { $0.contains("▀") } }

    @Test(.timeLimit(.minutes(1)), .enabled(if: EndToEnd.tmuxInstalled, "tmux is not installed"))
    func theGalleryStatusBarSaysTheDiskCacheIsOff() async throws {
        let (server, list) = try await Self.serve()
        let command = "cd \(list.deletingLastPathComponent().path) && TERM=tmux-256color COLORTERM=truecolor "
            + "\(EndToEnd.binary.path) --cache-dir \(list.path) list.txt; sleep 30"
        let tmux = try await TmuxSession.start(columns: 120, rows: 30, command: command)
        let shown = await tmux.wait(timeout: 20) { $0.contains("disk cache off: not a directory") && $0.contains("40×30") }
        #expect(shown.ok, "\(shown.screen)")
        let colours = await tmux.wait(timeout: 20, escapes: true) { screen in Self.colours.allSatisfy { screen.contains("2;\($0.0);\($0.1);\($0.2)") } }
        #expect(colours.ok, "not every image is drawn")
        await tmux.send("q")
        await server.stop()
    }
}
