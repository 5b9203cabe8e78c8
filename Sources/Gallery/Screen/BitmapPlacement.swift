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
        if let upload = image.upload {
            // kitty: this cell's own placement of the uploaded image (errors reported: the gallery reads
            // them as input and counts them), and the delete of exactly it.
            let placement = KittyRenderer.placementID(column: column, row: row)
            let cells = image.cells
            if upload.tmuxPassthrough {
                // tmux does not pass its cursor moves on before a passthrough: move the outer
                // terminal's cursor inside the passthrough (the pane is taken to start at the window's
                // top-left), saved and restored so tmux's own idea of the cursor stays right.
                let place = KittyRenderer.placement(imageID: upload.id, placementID: placement, cells: cells, reportErrors: true)
                self.image.bytes = TmuxPassthrough.wrap(
                    Array("\u{1B}7\u{1B}[\(row + 1);\(column + 1)H".utf8) + place + Array("\u{1B}8".utf8))
            } else {
                self.image.bytes = KittyRenderer.placement(imageID: upload.id, placementID: placement, cells: cells, reportErrors: true)
            }
            self.image.erase = KittyRenderer.delete(
                imageID: upload.id, placementID: placement, tmuxPassthrough: upload.tmuxPassthrough)
        }
    }
}

/// Everything one frame shows: the text grid and the image placements over it.
public struct Frame: Sendable, Hashable {
    /// The text cells.
    public var grid: CellGrid
    /// Images, written after the text.
    public var placements: [BitmapPlacement]
    /// Upload ids whose data the painter dropped: the terminal frees them (kitty `d=I`).
    public var released: [UInt32]
    /// How the content moved since the previous frame, when it moved by whole lines (the grid
    /// scrolled): a screen that can scroll the terminal sends only what the scroll exposed.
    public var scroll: FrameScroll?

    /// Creates a frame.
    public init(grid: CellGrid, placements: [BitmapPlacement] = [], released: [UInt32] = [], scroll: FrameScroll? = nil) {
        self.grid = grid
        self.placements = placements
        self.released = released
        self.scroll = scroll
    }
}

/// Rows `rows` of the screen moved up by `lines` (down when negative) since the previous frame.
public struct FrameScroll: Sendable, Hashable {
    /// The scrolled rows (the scroll region).
    public var rows: Range<Int>
    /// Lines moved: positive when the content moved up (the view went down the list).
    public var lines: Int

    /// Creates a scroll.
    public init(rows: Range<Int>, lines: Int) {
        self.rows = rows
        self.lines = lines
    }

    /// Whether it moves anything: `0 < |lines| < rows.count`.
    public var isUseful: Bool { lines != 0 && abs(lines) < rows.count }
}
