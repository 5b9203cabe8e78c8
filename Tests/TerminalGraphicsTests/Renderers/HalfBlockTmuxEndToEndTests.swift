import Foundation
import ImageCodecs
import TestSupport
import Testing
@testable import TerminalGraphics

/// Shows half-block output in a real tmux pane and reads back each cell's colours with
/// `capture-pane -p -e`.
@Suite(.endToEnd) struct HalfBlockTmuxEndToEndTests {
    /// The colour of one captured cell: SGR parameters as tmux reports them ("38;2;255;0;0").
    struct Cell: Equatable {
        var foreground: String
        var background: String
    }

    /// Parses `capture-pane -e` text into the (fg, bg) of every `▀` per row.
    static func cells(_ capture: String) -> [[Cell]] {
        var rows: [[Cell]] = []
        var fg = "", bg = ""
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            var row: [Cell] = []
            var scalars = Substring(line).unicodeScalars[...]
            while let scalar = scalars.popFirst() {
                if scalar == "\u{1B}", scalars.first == "[" {
                    scalars.removeFirst()
                    var body = ""
                    while let c = scalars.popFirst(), c != "m" { body.unicodeScalars.append(c) }
                    let params = body.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                    var i = 0
                    while i < params.count {
                        switch params[i] {
                        case "", "0": (fg, bg) = ("", "")
                        case "39": fg = ""
                        case "49": bg = ""
                        case "38", "48":
                            let count = params.count > i + 1 && params[i + 1] == "2" ? 5 : 3
                            let value = params[i..<min(params.count, i + count)].joined(separator: ";")
                            if params[i] == "38" { fg = value } else { bg = value }
                            i += count - 1
                        default: break
                        }
                        i += 1
                    }
                } else if scalar == "▀" {
                    row.append(Cell(foreground: fg, background: bg))
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Shows `bytes` in a private tmux server and captures the pane with escapes.
    func showInTmux(_ bytes: [UInt8]) async throws -> String {
        let dir = try Fixtures.temporaryDirectory("sdgallery-e2e-tmux")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.bin")
        try Data(bytes).write(to: file)
        let tmux = try await TmuxSession.start(columns: 30, rows: 8, command: "cat '\(file.path)'; touch '\(file.path).shown'; sleep 30")
        let shown = try await Blocking.run { GraphicalTerminal.waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: file.path + ".shown") } }
        #expect(shown, "the bytes were not shown")
        // Settled: two captures in a row agree.
        var last = await tmux.capture(escapes: true)
        return await tmux.wait(escapes: true) { screen in
            defer { last = screen }
            return screen == last
        }.screen
    }

    static let image = TestImages.make(width: 2, height: 4, [
        (255, 0, 0, 255), (0, 0, 255, 255),
        (0, 255, 0, 255), (255, 255, 255, 255),
        (10, 20, 30, 255), (10, 20, 30, 255),
        (95, 135, 175, 255), (200, 100, 0, 255),
    ])

    @Test(.enabled(if: TmuxSession.installed, "skipped: needs tmux"), .timeLimit(.minutes(1)))
    func truecolorCellsShowTheRightColours() async throws {
        let out = try HalfBlockRenderer().render(Self.image, cells: CellSize(columns: 2, rows: 2), cellPixelSize: PixelSize(width: 10, height: 20))
        let rows = Self.cells(try await showInTmux(out.positioned(row: 2, column: 4)))
        try #require(rows.count >= 3)
        #expect(rows[0].isEmpty)
        #expect(rows[1] == [
            Cell(foreground: "38;2;255;0;0", background: "48;2;0;255;0"),
            Cell(foreground: "38;2;0;0;255", background: "48;2;255;255;255"),
        ])
        #expect(rows[2] == [
            Cell(foreground: "38;2;10;20;30", background: "48;2;95;135;175"),
            Cell(foreground: "38;2;10;20;30", background: "48;2;200;100;0"),
        ])
    }

    @Test(.enabled(if: TmuxSession.installed, "skipped: needs tmux"), .timeLimit(.minutes(1)))
    func palette256CellsShowTheRightIndices() async throws {
        let out = try HalfBlockRenderer(colorDepth: .color256).render(Self.image, cells: CellSize(columns: 2, rows: 2), cellPixelSize: PixelSize(width: 10, height: 20))
        let rows = Self.cells(try await showInTmux(out.bytes))
        try #require(rows.count >= 2)
        #expect(rows[0] == [
            Cell(foreground: "38;5;196", background: "48;5;46"),
            Cell(foreground: "38;5;21", background: "48;5;231"),
        ])
        #expect(rows[1].map(\.background) == ["48;5;67", "48;5;\(ColorPalette.nearest256(RGBColor(r: 200, g: 100, b: 0)))"])
    }
}
