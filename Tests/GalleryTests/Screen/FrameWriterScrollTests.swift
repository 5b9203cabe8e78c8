import Foundation
import Testing
import TerminalGraphics
import TestSupport
@testable import Gallery

@Suite struct FrameWriterScrollTests {
    func placement(row: Int, erase: String = "") -> BitmapPlacement {
        var image = RenderedImage(kind: .sixel, bytes: Array("<img \(row)>".utf8), cells: CellSize(columns: 4, rows: 3), identity: UInt64(row))
        image.erase = Array(erase.utf8)
        return BitmapPlacement(column: 2, row: row, image: image)
    }

    @Test func theShownPlacementsMoveWithTheScrollAndWhatLeftIsErased() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 20)
        let top = placement(row: 0, erase: "<del 0>"), middle = placement(row: 6), status = placement(row: 16)
        _ = writer.plan([top, middle, status], terminal: terminal, repaintAll: true, changedRows: [])
        // Rows 0..<12 move up by 6: the top image leaves (its erase bytes go out), the middle one
        // moves to row 0, the one below the region stays.
        let bytes = String(decoding: writer.scroll(FrameScroll(rows: 0..<12, lines: 6), terminal: terminal), as: UTF8.self)
        #expect(bytes == "\u{1B}7\u{1B}[0m\u{1B}[1;12r\u{1B}[6S\u{1B}[r\u{1B}8<del 0>")
        #expect(writer.shown.map(\.rect.row) == [0, 16])
        // The moved image is not sent again where it now is; the new one is.
        var moved = middle
        moved.rect.row = 0
        let plan = writer.plan([moved, placement(row: 6), status], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(plan.emit.map(\.rect.row) == [6])
        #expect(plan.cleared.isEmpty)
    }

    @Test func whatAScrollPushesPartlyOutOfTheRegionIsErasedByTheNextPlan() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 20)
        // Rows 0..<12 scroll down by 6 (k): the image at rows 5..<8 lands at 11..<14, of which row 11
        // is still in the region. Text erases it (no erase bytes): the next plan must clear row 11.
        let low = placement(row: 5)
        _ = writer.plan([low], terminal: terminal, repaintAll: true, changedRows: [])
        let bytes = String(decoding: writer.scroll(FrameScroll(rows: 0..<12, lines: -6), terminal: terminal), as: UTF8.self)
        #expect(!bytes.contains("<"), "no erase bytes to send: \(bytes)")
        #expect(writer.shown.map(\.rect) == [CellRect(column: 2, row: 11, columns: 4, rows: 1)])
        let plan = writer.plan([], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(plan.cleared.contains { $0.row == 11 && $0.rows == 1 && $0.column == 2 && $0.columns == 4 }, "\(plan.cleared)")
        // With erase bytes (kitty), they go out with the scroll and nothing stays recorded.
        var kitty = FrameWriter()
        _ = kitty.plan([placement(row: 5, erase: "<del 5>")], terminal: terminal, repaintAll: true, changedRows: [])
        #expect(String(decoding: kitty.scroll(FrameScroll(rows: 0..<12, lines: -6), terminal: terminal), as: UTF8.self).hasSuffix("<del 5>"))
        #expect(kitty.shown.isEmpty)
    }

    @Test func theWholeScreenScrollsWithoutMarginsAndDownwardsWithSD() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 20)
        #expect(String(decoding: writer.scroll(FrameScroll(rows: 0..<20, lines: -5), terminal: terminal), as: UTF8.self)
                == "\u{1B}7\u{1B}[0m\u{1B}[5T\u{1B}8")
        #expect(writer.scroll(FrameScroll(rows: 0..<20, lines: 20), terminal: terminal).isEmpty)  // not useful
    }

    @Test func aScrolledGridMovesItsRowsAndBlanksTheExposedOnes() {
        var grid = CellGrid(size: CellSize(columns: 3, rows: 4))
        for row in 0..<4 { _ = grid.put("r\(row)", column: 0, row: row) }
        let up = grid.scrolled(FrameScroll(rows: 0..<3, lines: 1))
        #expect((0..<4).map { up.line($0).trimmingCharacters(in: .whitespaces) } == ["r1", "r2", "", "r3"])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tic")))
    func theNoScrollTerminfoEntryHasNoScrollCapabilities() throws {
        let entry = try #require(NoScrollTerminfo.make(for: "xterm-256color"))
        defer { entry.remove() }
        let described = try ChildProcess.run("/usr/bin/infocmp", ["-x", NoScrollTerminfo.name], environment: ["TERMINFO": entry.directory.path])
        #expect(described.status == 0)
        let names = Set(described.out.split(whereSeparator: { ", \t\n".contains($0) }).map { $0.split(separator: "=").first.map(String.init) ?? "" })
        for capability in ["ind", "ri", "indn", "rin", "csr", "il1", "il", "dl1", "dl", "bce"] {
            #expect(!names.contains(capability), "\(capability) is still there")
        }
        #expect(names.contains("cup") && names.contains("setaf"))  // everything else is the user's terminal
        #expect(NoScrollTerminfo.make(for: "bad;name") == nil)
        #expect(names.contains("ech"))
        // mlterm: no `ech` either (it left characters standing beside wide ones, issue 29).
        let noErase = try #require(NoScrollTerminfo.make(for: "xterm-256color", withoutEraseCharacters: true))
        defer { noErase.remove() }
        let plain = try ChildProcess.run("/usr/bin/infocmp", ["-x", NoScrollTerminfo.name], environment: ["TERMINFO": noErase.directory.path])
        #expect(!Set(plain.out.split(whereSeparator: { ", \t\n".contains($0) }).map { $0.split(separator: "=").first.map(String.init) ?? "" })
            .contains("ech"))
        #expect(!TerminalProfile(capabilities: TerminalCapabilities(terminalName: "mlterm(3.9.3)")).strategy.erasesWideCharactersByColumn)
        #expect(TerminalProfile(capabilities: TerminalCapabilities(terminalName: "XTerm(379)")).strategy.erasesWideCharactersByColumn)
    }
}
