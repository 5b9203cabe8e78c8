import TerminalGraphics

/// A painted image placed at a rectangle of the screen. Curses does not know about it: the cells
/// under it are blank in the text grid, and the frame writer emits the bytes after `doupdate()`.
public struct BitmapPlacement: Sendable, Hashable {
    /// Where it goes (its size is the painted size).
    public var rect: CellRect
    /// What to write (`RenderedImage.placed(atColumn:row:)`: kitty's placement of this cell).
    public var image: RenderedImage

    /// Places `image` with its top-left cell at (column, row).
    public init(column: Int, row: Int, image: RenderedImage) {
        self.rect = CellRect(column: column, row: row, columns: image.cells.columns, rows: image.cells.rows)
        self.image = image.placed(atColumn: column, row: row)
    }
}
