import Foundation
import Testing
import TestSupport
@testable import Gallery

/// `s` saves the selected image's original, byte for byte, into `--save-dir`, and never overwrites:
/// a second `s` makes `name (1).ext`.
@Suite(.endToEnd, EndToEnd.needs(.tmux))
struct SaveOriginalGalleryTests {
    @Test(.timeLimit(.minutes(1)))
    func sSavesTheOriginalByteForByteAndNeverOverwrites() async throws {
        let server = try await LoopbackServer.start()
        let png = TestPNG.solid(width: 64, height: 48, rgba: (0, 200, 0, 255))
        server.route("/photos/green-one.png", .ok(png, contentType: "image/png"))
        let dir = try Fixtures.temporaryDirectory("gallery-save")
        defer { try? FileManager.default.removeItem(at: dir) }
        let saves = dir.appendingPathComponent("saved")
        try FileManager.default.createDirectory(at: saves, withIntermediateDirectories: true)
        // A file already there under the name: it must survive.
        try Data("mine".utf8).write(to: saves.appendingPathComponent("green-one.png"))
        try Data("\(server.url("/photos/green-one.png").absoluteString) Green\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --renderer blocks --save-dir \(saves.path) list.txt; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        #expect(await tmux.wait(timeout: 10) { $0.contains("64×48") }.ok, "no image")
        await tmux.send("s")
        #expect(await tmux.wait(timeout: 10) { $0.contains("saved green-one (1).png in") }.ok, "no status line")
        await tmux.send("s")
        #expect(await tmux.wait(timeout: 10) { $0.contains("saved green-one (2).png in") }.ok)
        await tmux.send("q")
        #expect(try Data(contentsOf: saves.appendingPathComponent("green-one (1).png")) == png)
        #expect(try Data(contentsOf: saves.appendingPathComponent("green-one (2).png")) == png)
        #expect(try Data(contentsOf: saves.appendingPathComponent("green-one.png")) == Data("mine".utf8))
        await server.stop()
    }
}

@Suite struct OriginalSaverNameTests {
    @Test func namesAreSafeForTheFileSystem() {
        #expect(OriginalSaver.fileSystemName("photo.jpg") == ("photo", ".jpg"))
        #expect(OriginalSaver.fileSystemName("..hidden.png") == ("hidden", ".png"))
        #expect(OriginalSaver.fileSystemName("a/b\u{1B}[2J.gif") == ("ab[2J", ".gif"))
        #expect(OriginalSaver.fileSystemName("") == ("image", ""))
        #expect(OriginalSaver.fileSystemName("noext") == ("noext", ""))
        #expect(OriginalSaver.fileSystemName(String(repeating: "x", count: 500)).stem.utf8.count == 200)
    }
}
