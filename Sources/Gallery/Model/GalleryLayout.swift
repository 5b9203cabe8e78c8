import ImageCodecs
import TerminalGraphics

/// Grid or list.
public enum ViewMode: String, Sendable, Hashable, CaseIterable {
    /// Thumbnails in columns, caption under each.
    case grid
    /// One item per row: small thumbnail, text beside it.
    case list
}

/// Where one item is drawn: its whole cell, the image part and the text part.
public struct ItemPlacement: Sendable, Hashable {
    /// Item index in the gallery.
    public var index: Int
    /// The whole cell (image plus caption).
    public var cell: CellRect
    /// Where the image goes.
    public var image: CellRect
    /// Where the caption goes (below the image in a grid, beside it in a list).
    public var text: CellRect
}

/// The geometry of a grid or list for one terminal size, computed without I/O. The last terminal row
/// is the status bar; images never touch it.
public struct GalleryLayout: Sendable, Hashable {
    /// Default pixel width a grid thumbnail aims for when `--columns` is not given.
    public static let preferredThumbnailWidth = 176

    /// Grid or list.
    public let mode: ViewMode
    /// Terminal size in cells.
    public let terminal: CellSize
    /// Pixel size of one cell.
    public let cellPixels: PixelSize
    /// Items per row.
    public let columns: Int
    /// Width of one cell in columns.
    public let cellWidth: Int
    /// Columns between cells.
    public let gap: Int
    /// Left margin that centres the grid.
    public let leftMargin: Int
    /// Rows of the image part of a cell.
    public let imageRows: Int
    /// Rows of caption under the image (grid only).
    public let captionRows: Int
    /// Blank rows between item rows.
    public let rowGap: Int
    /// Columns of the thumbnail in list mode (equals `cellWidth` in grid mode).
    public let imageColumns: Int
    /// Item rows that fit on one screen (at least 1 when any content row exists), fewer when an
    /// image limit holds.
    public private(set) var visibleRows: Int
    /// Whether `imageLimit` made this screen hold fewer items than it could (the status bar says why).
    public private(set) var cappedByImageLimit = false

    /// Rows available above the status bar.
    public var contentRows: Int { max(0, terminal.rows - 1) }
    /// Height of one item row including the gap below it.
    public var itemHeight: Int { imageRows + captionRows + rowGap }
    /// Items on one full screen.
    public var pageCapacity: Int { columns * visibleRows }

    /// Computes a layout. `columnsOverride` (`--columns`) fixes the number of grid columns (clamped so
    /// a cell keeps at least 4 columns). `imageLimit` (tmux keeps only so many images: `TmuxImages`)
    /// caps the items on one screen: without `--columns` by taking fewer, larger columns, else (or when
    /// that is not enough) by showing fewer rows.
    public init(mode: ViewMode, terminal: CellSize, cellPixels: PixelSize, columnsOverride: Int? = nil, imageLimit: Int? = nil) {
        self.init(mode: mode, terminal: terminal, cellPixels: cellPixels, unlimited: columnsOverride)
        guard let limit = imageLimit.map({ max(1, $0) }), pageCapacity > limit else { return }
        defer { cappedByImageLimit = true }
        if mode == .grid {
            if columnsOverride == nil {
                // The fewer, larger columns that show the most items within the limit.
                let fits = stride(from: self.columns - 1, through: 1, by: -1)
                    .map { GalleryLayout(mode: mode, terminal: terminal, cellPixels: cellPixels, unlimited: $0) }
                    .filter { $0.pageCapacity <= limit }
                if let best = fits.max(by: { $0.pageCapacity < $1.pageCapacity }) {
                    self = best
                    return
                }
            }
            if columns > limit {
                self = GalleryLayout(mode: mode, terminal: terminal, cellPixels: cellPixels, unlimited: limit)
            }
        }
        visibleRows = min(visibleRows, max(1, limit / columns))
    }

    /// The layout without an image limit.
    private init(mode: ViewMode, terminal: CellSize, cellPixels: PixelSize, unlimited columnsOverride: Int?) {
        self.mode = mode
        self.terminal = terminal
        let px = PixelSize(width: max(1, cellPixels.width), height: max(1, cellPixels.height))
        self.cellPixels = px
        let available = max(0, terminal.rows - 1)
        let width = terminal.columns
        switch mode {
        case .grid:
            let gap = width >= 20 ? 1 : 0
            let maxColumns = max(1, (width + gap) / (4 + gap))
            let wanted: Int
            if let columnsOverride {
                wanted = columnsOverride
            } else {
                let preferred = max(6, (Self.preferredThumbnailWidth + px.width / 2) / px.width)
                wanted = (width + gap) / (preferred + gap)
            }
            let columns = min(maxColumns, max(1, wanted))
            let cellWidth = max(0, (width - (columns - 1) * gap) / columns)
            let ideal = max(1, Int((Double(cellWidth * px.width) * 0.75 / Double(px.height)).rounded()))
            let caption = available >= 8 ? 2 : (available >= 2 ? 1 : 0)
            var imageRows = min(ideal, available - caption)
            if imageRows < 1 { imageRows = max(0, available - caption) }
            let rowGap = available >= 2 * (imageRows + caption) + 1 ? 1 : 0
            self.columns = columns
            self.cellWidth = cellWidth
            self.gap = gap
            self.leftMargin = max(0, (width - columns * cellWidth - (columns - 1) * gap) / 2)
            self.imageRows = imageRows
            self.captionRows = caption
            self.rowGap = rowGap
            self.imageColumns = cellWidth
            let height = imageRows + caption + rowGap
            self.visibleRows = available == 0 || height == 0 ? 0 : max(1, (available + rowGap) / height)
        case .list:
            let rows = available >= 4 ? 4 : available
            let thumb = rows == 0 ? 0 : min(max(2, Int((Double(rows * px.height) * 4 / 3 / Double(px.width)).rounded())), max(2, width / 3))
            self.columns = 1
            self.cellWidth = width
            self.gap = 0
            self.leftMargin = 0
            self.imageRows = rows
            self.captionRows = 0
            self.rowGap = 0
            self.imageColumns = min(thumb, width)
            self.visibleRows = rows == 0 ? 0 : available / rows
        }
    }

    /// Number of item rows for `count` items.
    public func totalRows(count: Int) -> Int { count <= 0 ? 0 : (count + columns - 1) / columns }

    /// The item row holding `index`.
    public func row(of index: Int) -> Int { index / max(1, columns) }

    /// Where item `index` is drawn when the first visible item row is `scrollRow`; nil when off screen.
    public func placement(of index: Int, scrollRow: Int) -> ItemPlacement? {
        let screenRow = row(of: index) - scrollRow
        guard screenRow >= 0, screenRow < visibleRows else { return nil }
        let top = screenRow * itemHeight
        switch mode {
        case .grid:
            let column = index % columns
            let left = leftMargin + column * (cellWidth + gap)
            let cell = CellRect(column: left, row: top, columns: cellWidth, rows: imageRows + captionRows)
            let image = CellRect(column: left, row: top, columns: cellWidth, rows: imageRows)
            let text = CellRect(column: left, row: top + imageRows, columns: cellWidth, rows: captionRows)
            return ItemPlacement(index: index, cell: cell, image: image, text: text)
        case .list:
            let cell = CellRect(column: 0, row: top, columns: terminal.columns, rows: imageRows)
            let image = CellRect(column: 0, row: top, columns: imageColumns, rows: imageRows)
            let textLeft = min(terminal.columns, imageColumns + 1)
            let text = CellRect(column: textLeft, row: top, columns: terminal.columns - textLeft, rows: imageRows)
            return ItemPlacement(index: index, cell: cell, image: image, text: text)
        }
    }

    /// The item whose cell contains the screen position, if any.
    public func index(atColumn column: Int, row: Int, scrollRow: Int, count: Int) -> Int? {
        guard itemHeight > 0, row >= 0, row < contentRows, column >= 0 else { return nil }
        let screenRow = row / itemHeight
        guard screenRow < visibleRows else { return nil }
        let column0: Int
        switch mode {
        case .grid:
            let x = column - leftMargin
            guard x >= 0 else { return nil }
            column0 = x / (cellWidth + gap)
            guard column0 < columns, x % (cellWidth + gap) < cellWidth else { return nil }
        case .list:
            column0 = 0
        }
        let index = (scrollRow + screenRow) * columns + column0
        guard index < count, let place = placement(of: index, scrollRow: scrollRow),
              place.cell.contains(column: column, row: row) else { return nil }
        return index
    }

    /// The full-view image rectangle: every content row but the metadata lines.
    public var fullViewImage: CellRect {
        CellRect(column: 0, row: 0, columns: terminal.columns, rows: contentRows - fullViewMetadataRows)
    }

    /// Rows of metadata under the full-view image (0 on tiny terminals).
    public var fullViewMetadataRows: Int { contentRows >= 8 ? 2 : (contentRows >= 4 ? 1 : 0) }
}
