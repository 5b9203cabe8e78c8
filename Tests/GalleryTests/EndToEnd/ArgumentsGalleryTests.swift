import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Gallery

/// Arguments like timg's: image files, a directory (natural order, `-r`), a URL to the loopback
/// server and a list file, mixed, all show in order; a bad one is named and the rest still show.
@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct ArgumentsGalleryTests {
    @Test(.timeLimit(.minutes(1)))
    func mixedArgumentsAllShowInOrder() async throws {
        let server = try await LoopbackServer.start()
        server.route("/remote.png", .ok(TestPNG.solid(width: 30, height: 20, rgba: (0, 0, 255, 255)), contentType: "image/png"))
        let dir = try Fixtures.temporaryDirectory("gallery-args")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("deeper"), withIntermediateDirectories: true)
        try await EndToEnd.makeImagesAsync(in: dir, [("one.png", "#ff0000"), ("two.png", "#00ff00")])
        try await EndToEnd.makeImagesAsync(in: folder, [("img10.png", "#101010"), ("img2.png", "#202020"), ("img1.png", "#303030")])
        try await EndToEnd.makeImagesAsync(in: folder.appendingPathComponent("deeper"), [("inner.png", "#404040")])
        try Data("one.png Listed\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let arguments = "one.png two.png shots \(server.url("/remote.png").absoluteString) list.txt missing.png"
        let command = "cd \(dir.path) && TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --renderer blocks --list \(arguments) 2>err.txt; sleep 30"
        let tmux = try await TmuxSession.start(columns: 120, rows: 60, command: command)
        let shown = await tmux.wait(timeout: 15) { $0.contains("/7 · list") && $0.contains("30×20") }
        #expect(shown.ok, "not all shown: \(shown.screen)")
        let order = ["one.png", "two.png", "img1.png", "img2.png", "img10.png", "remote.png", "Listed"]
        let positions = order.compactMap { shown.screen.range(of: $0)?.lowerBound }
        #expect(positions.count == order.count && positions == positions.sorted(), "order: \(shown.screen)")
        #expect(!shown.screen.contains("inner.png"), "subdirectories without -r")
        await tmux.send("q")
        let errors = try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8)
        #expect(errors.contains("missing.png: No such file or directory"))
        await server.stop()
    }

    @Test func recursiveDescendsAndSniffingTellsImagesFromLists() throws {
        let dir = try Fixtures.temporaryDirectory("gallery-args-r")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("b/c"), withIntermediateDirectories: true)
        for path in ["a10.jpg", "a9.jpg", "b/x.png", "b/c/y.gif", ".hidden.png", "notes.txt"] {
            try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: dir.appendingPathComponent(path))
        }
        let names = URLListIndex.imagesInDirectory(dir.path, recursive: true).map { String($0.dropFirst(dir.path.count + 1)) }
        #expect(names == ["a9.jpg", "a10.jpg", "b/x.png", "b/c/y.gif"])
        #expect(URLListIndex.imagesInDirectory(dir.path, recursive: false).count == 2)
        // A FIFO, a socket or a device named like an image is not taken (issue 30: opening one blocked).
        #expect(mkfifo(dir.appendingPathComponent("pipe.jpg").path, 0o600) == 0)
        #expect(URLListIndex.imagesInDirectory(dir.path, recursive: false).count == 2)
    }
}
