import TerminalGraphics
import TerminalModel
@testable import Gallery

/// The properties a random exploration checks once the gallery has settled, on the terminal model:
/// - the terminal did not complain (kitty ENOENT, a sixel reaching the last row);
/// - every placement of the last frame is shown, cell by cell, as it would be on an empty screen;
/// - every visible item whose image is final has a placement;
/// - the screen equals the screen after a full repaint (Ctrl-L), the status bar excluded.
enum ExplorationOracle {
    /// Runs `steps` on a fresh gallery in a terminal of `kind`, settles, and returns what went wrong
    /// (nil when nothing did).
    static func explore(_ kind: TerminalKind, _ steps: [ExplorationStep], count: Int = 60) throws -> String? {
        let driver = try GalleryDriver(kind: kind, count: count)
        for step in steps { driver.run(step) }
        return check(driver)
    }

    /// Settles `driver` and checks the properties.
    static func check(_ driver: GalleryDriver) -> String? {
        // Animations play until paused: paused, the screen settles and Ctrl-L paints what it holds.
        if !driver.app.model.animationsPaused { driver.run(.key("a", Array("a".utf8))) }
        driver.settle()
        let terminal = driver.screen.terminal
        var problems: [String] = []
        if !terminal.diagnostics.isEmpty { problems.append("terminal: " + terminal.diagnostics.prefix(3).joined(separator: "; ")) }
        let settled = terminal.snapshot
        if let frame = driver.screen.lastFrame {
            problems += missingPlacements(frame, in: terminal)
            problems += missingFinals(driver.app.model, frame)
        }
        driver.repaintAll()
        let repainted = terminal.snapshot
        let rows = 0..<max(0, min(settled.rows, repainted.rows) - 1)
        if !settled.differences(from: repainted, rows: rows).isEmpty {
            problems.append("settled ≠ Ctrl-L: " + settled.describeDifferences(from: repainted, rows: rows))
        }
        return problems.isEmpty ? nil : problems.joined(separator: " | ")
    }

    /// Placements of `frame` the terminal does not show as they would look on their own.
    static func missingPlacements(_ frame: Frame, in terminal: TerminalModel) -> [String] {
        var problems: [String] = []
        let (columns, rows) = terminal.size
        let shown = terminal.snapshot
        for placement in frame.placements {
            let alone = TerminalModel(kind: terminal.kind, columns: columns, rows: rows, cellWidth: terminal.cellWidth, cellHeight: terminal.cellHeight)
            if let upload = placement.image.upload { alone.write(upload.bytes) }
            alone.write(FrameWriter.bytes(for: [placement]))
            var wrong = 0
            for row in placement.rect.row..<min(rows, placement.rect.maxRow) {
                for column in placement.rect.column..<min(columns, placement.rect.maxColumn) {
                    let expected: VisibleCell = alone.image(column: column, row: row).map { .image($0) } ?? .text(alone.textCell(column: column, row: row))
                    let actual = shown[column, row]
                    switch (expected, actual) {
                    case (.image(let e), .image(let a)) where e.image == a.image && e.dx == a.dx && e.dy == a.dy: continue
                    case (.text(let e), .text(let a)) where e == a: continue
                    case (.text, _) where terminal.kind != .tmux: continue  // padding around a bitmap
                    default: wrong += 1
                    }
                }
            }
            if wrong > 0 {
                problems.append("placement at \(placement.rect.column),\(placement.rect.row) (\(placement.rect.columns)x\(placement.rect.rows)): \(wrong) cells not shown")
            }
        }
        return problems
    }

    /// Visible items whose image is final but that the frame does not place.
    static func missingFinals(_ model: GalleryModel, _ frame: Frame) -> [String] {
        guard !model.showingHelp else { return [] }
        return model.placements.compactMap { item in
            guard model.items[item.index].state == .final, !item.image.isEmpty else { return nil }
            let placed = frame.placements.contains { $0.rect.intersects(item.image) }
            return placed ? nil : "item \(item.index) is final but has no placement at \(item.image.column),\(item.image.row)"
        }
    }
}
