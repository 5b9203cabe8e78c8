import Foundation
import Testing
import TestSupport

/// The real program in a real kitty (0.26, under Xvfb): kitty graphics as the protocol means them.
/// Solid-colour images make the screen easy to read: a colour's pixel count is its images' area.
@Suite(.endToEnd, EndToEnd.needs(.kitty), .serialized)
struct KittyGalleryTests {
    static let red: (UInt8, UInt8, UInt8) = (255, 0, 0)
    static let green: (UInt8, UInt8, UInt8) = (0, 255, 0)

    /// A folder with red.png and green.png and a list: red, green, red.
    func fixture() throws -> URL {
        let dir = try Fixtures.temporaryDirectory("kitty-e2e")
        try TestPNG.solid(width: 96, height: 64, rgba: (255, 0, 0, 255)).write(to: dir.appendingPathComponent("red.png"))
        try TestPNG.solid(width: 96, height: 64, rgba: (0, 255, 0, 255)).write(to: dir.appendingPathComponent("green.png"))
        let list = ["red.png", "green.png", "red.png"].map { dir.appendingPathComponent($0).path }.joined(separator: "\n")
        try Data((list + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        return dir
    }

    /// Two red images for one green one, all visible.
    static func redTwiceGreenOnce(_ screen: GraphicalTerminal.Histogram) -> Bool {
        let red = screen.count(of: red), green = screen.count(of: green)
        return green > 500 && abs(red - 2 * green) * 10 < green
    }

    /// The fixture's images show (red twice, green once); after `q` the program exits and none of
    /// them stays on screen. A screenshot named `shot` is kept next to the fixture when they never show.
    static func expectImagesThenNothingAfterQuit(_ kitty: GraphicalTerminal, dir: URL, shot: String) {
        let shown = kitty.wait(timeout: 40, redTwiceGreenOnce)
        if !shown.ok { try? kitty.screenshot(to: dir.deletingLastPathComponent().path + "/" + shot) }
        #expect(shown.ok, "red \(shown.last?.count(of: red) ?? -1), green \(shown.last?.count(of: green) ?? -1)")
        try? kitty.type("q")
        let exit = dir.appendingPathComponent("exit.txt").path
        #expect(GraphicalTerminal.waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: exit) })
        let cleared = kitty.wait(timeout: 10) { $0.count(of: red) == 0 && $0.count(of: green) == 0 }
        #expect(cleared.ok, "images left after q: red \(cleared.last?.count(of: red) ?? -1)")
    }

    @Test(.timeLimit(.minutes(2)))
    func oneImageInTwoCellsShowsTwiceAndNothingStaysAfterQuit() async throws {
        let dir = try fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let command = "cd \(dir.path) && XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --columns 3 list.txt; "
            + "echo $? > exit.txt; sleep 600"
        try await Blocking.run {
            let kitty = try GraphicalTerminal(kind: .kitty, command: command, directory: "/tmp", displays: 60...69, background: "#000000")
            defer { kitty.stop() }
            Self.expectImagesThenNothingAfterQuit(kitty, dir: dir, shot: "kitty-twice-failed.png")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func printInKittyShowsTheImagesAsKittyGraphics() async throws {
        let dir = try fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        // `script` gives the sheet a terminal of its own and records what it wrote.
        let command = "cd \(dir.path) && XDG_CACHE_HOME=\(dir.path)/cache script -q -e -c '\(EndToEnd.binary.path) --print --columns 3 list.txt' "
            + "typescript.bin; echo $? > exit.txt; sleep 600"
        try await Blocking.run {
            let kitty = try GraphicalTerminal(kind: .kitty, command: command, directory: "/tmp", displays: 60...69, background: "#000000")
            defer { kitty.stop() }
            let exit = dir.appendingPathComponent("exit.txt").path
            #expect(GraphicalTerminal.waitUntil(timeout: 40) { FileManager.default.fileExists(atPath: exit) })
            let shown = kitty.wait(timeout: 20, Self.redTwiceGreenOnce)
            if !shown.ok { try? kitty.screenshot(to: dir.deletingLastPathComponent().path + "/kitty-print-failed.png") }
            #expect(shown.ok, "red \(shown.last?.count(of: Self.red) ?? -1), green \(shown.last?.count(of: Self.green) ?? -1)")
            let written = try Data(contentsOf: dir.appendingPathComponent("typescript.bin"))
            let commands = KittyCommand.parse([UInt8](written))
            let places = commands.filter { $0.keys["a"] == "p" }
            #expect(places.count == 3 && Set(places.compactMap { $0.keys["p"] }).count == 3, "one placement per entry")
            let sent = Set(KittyCommand.transmitted(commands).keys.map(String.init))
            #expect(!sent.isEmpty && places.allSatisfy { sent.contains($0.keys["i"] ?? "") }, "every placement's image was sent")
        }
    }

    /// Forced (`--renderer kitty`) or not, with the outer kitty answering through passthrough: no kitty
    /// graphics through tmux (a passthrough placement follows the outer terminal's cursor, not tmux's:
    /// misplaced wherever they differ, e.g. `--print`, split panes), half blocks and a status saying why.
    @Test(.timeLimit(.minutes(2)), arguments: [(65, "--renderer kitty"), (66, "")])
    func kittyIsNotSentThroughTmuxPassthrough(display: Int, renderer: String) async throws {
        let dir = try fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("set -g allow-passthrough on\nset -g status off\n".utf8).write(to: dir.appendingPathComponent("tmux.conf"))
        let socket = "h12b-kitty-\(getpid())-\(display)"
        let inner = "XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) \(renderer) --columns 3 \(dir.path)/list.txt; "
            + "echo $? > \(dir.path)/exit.txt; sleep 600"
        let command = "cd \(dir.path) && tmux -L \(socket) -f \(dir.path)/tmux.conf new-session '\(inner)'"
        try await Blocking.run {
            let kitty = try GraphicalTerminal(kind: .kitty, command: command, directory: "/tmp", displays: 60...69, background: "#000000")
            defer {
                kitty.stop()
                _ = try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "kill-server"])
                try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")
            }
            var pane = ""
            let said = GraphicalTerminal.waitUntil(timeout: 30) {
                pane = (try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "capture-pane", "-p"]).out) ?? ""
                return pane.contains("inside tmux") && pane.contains("kitty") && pane.contains("▀")
            }
            #expect(said, "no half blocks or no reason in the status line: \(pane)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func withoutPassthroughTmuxGetsHalfBlocksAndOneStatusLineSayingWhy() async throws {
        let dir = try fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("set -g allow-passthrough off\nset -g status off\n".utf8).write(to: dir.appendingPathComponent("tmux.conf"))
        let socket = "h12b-kitty-\(getpid())-67"
        let inner = "XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --columns 3 \(dir.path)/list.txt; sleep 600"
        let command = "cd \(dir.path) && tmux -L \(socket) -f \(dir.path)/tmux.conf new-session '\(inner)'"
        try await Blocking.run {
            let kitty = try GraphicalTerminal(kind: .kitty, command: command, directory: "/tmp", displays: 60...69, background: "#000000")
            defer {
                kitty.stop()
                _ = try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "kill-server"])
                try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")
            }
            var pane = ""
            let said = GraphicalTerminal.waitUntil(timeout: 30) {
                pane = (try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "capture-pane", "-p"]).out) ?? ""
                return pane.contains("inside tmux") && pane.contains("▀")
            }
            #expect(said, "no half blocks or no reason in the status line: \(pane)")
        }
    }
}
