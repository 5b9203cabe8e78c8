import TerminalGraphics

/// A painted image placed at a rectangle of the screen. Curses does not know about it: the cells
/// under it are blank in the text grid, and the frame writer emits the bytes after `doupdate()`.
public struct BitmapPlacement: Sendable, Hashable {
    /// Where it goes (its size is the painted size).
    public var rect: CellRect
    /// What to write.
    public var image: RenderedImage

    /// Places `image` with its top-left cell at (column, row).
    public init(column: Int, row: Int, image: RenderedImage) {
        self.rect = CellRect(column: column, row: row, columns: image.cells.columns, rows: image.cells.rows)
        self.image = image
        if let upload = image.upload, image.rows.isEmpty {
            // kitty (placed by id; Unicode placeholders are text and need neither): this cell's own placement of the uploaded image (errors reported: the gallery reads
            // them as input and counts them), and the delete of exactly it.
            let placement = KittyRenderer.placementID(column: column, row: row)
            let cells = image.cells
            if upload.tmuxPassthrough {
                // tmux does not pass its cursor moves on before a passthrough: move the outer
                // terminal's cursor inside the passthrough (the pane is taken to start at the window's
                // top-left), saved and restored so tmux's own idea of the cursor stays right.
                let place = KittyRenderer.placement(imageID: upload.id, placementID: placement, cells: cells, reportErrors: true)
                self.image.bytes = TmuxPassthrough.wrap(
                    EscapeSequence.saveCursor + EscapeSequence.cursorPosition(row: row + 1, column: column + 1) + place
                        + EscapeSequence.restoreCursor)
            } else {
                self.image.bytes = KittyRenderer.placement(imageID: upload.id, placementID: placement, cells: cells, reportErrors: true)
            }
            self.image.erase = KittyRenderer.delete(
                imageID: upload.id, placementID: placement, tmuxPassthrough: upload.tmuxPassthrough)
        }
    }
}
