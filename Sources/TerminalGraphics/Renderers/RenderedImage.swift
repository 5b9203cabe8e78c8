import ImageCodecs

/// The bytes that draw one image in a cell rectangle, plus what they cover.
public struct RenderedImage: Sendable, Hashable {
    /// Which renderer made it.
    public var kind: RendererKind
    /// Everything to emit with the cursor at the rectangle's top-left cell. For kitty this is the
    /// transmission followed by the placement; text kinds move down a row with `CSI n D CSI B`
    /// (prefer `positioned(row:column:)` for text near the right margin).
    public var bytes: [UInt8]
    /// Text kinds: one entry per cell row (SGR + characters, ending with SGR reset). Empty for bitmaps.
    public var rows: [[UInt8]]
    /// kitty: the placement alone (repaint of an already transmitted image). Nil for other kinds.
    public var placement: [UInt8]?
    /// kitty: the image id used on the wire.
    public var kittyImageID: UInt32?
    /// kitty: the transmission alone (`a=t`, the data under `kittyImageID`), sent once per id.
    public var kittyUpload: [UInt8]?
    /// Cells actually covered (≤ the requested rectangle).
    public var cells: CellSize
    /// Pixel size that was encoded (for text kinds: the sampling grid).
    public var pixelSize: PixelSize

    /// Creates a rendered image.
    public init(
        kind: RendererKind, bytes: [UInt8], rows: [[UInt8]] = [], placement: [UInt8]? = nil,
        kittyImageID: UInt32? = nil, kittyUpload: [UInt8]? = nil, cells: CellSize, pixelSize: PixelSize
    ) {
        self.kind = kind
        self.bytes = bytes
        self.rows = rows
        self.placement = placement
        self.kittyImageID = kittyImageID
        self.kittyUpload = kittyUpload
        self.cells = cells
        self.pixelSize = pixelSize
    }

    /// Memory cost in bytes (for cost-bounded caches).
    public var cost: Int {
        bytes.count + rows.reduce(0) { $0 + $1.count } + (placement?.count ?? 0) + (kittyUpload?.count ?? 0) + 64
    }

    /// Bytes that draw the image with its top-left cell at 1-based (`row`, `column`), using absolute
    /// cursor positioning (one `CSI row;col H` per text row).
    public func positioned(row: Int, column: Int) -> [UInt8] {
        if rows.isEmpty { return EscapeSequence.cursorPosition(row: row, column: column) + bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + rows.count * 10)
        for (index, line) in rows.enumerated() {
            out += EscapeSequence.cursorPosition(row: row + index, column: column)
            out += line
        }
        return out
    }

    /// Joins text rows with relative cursor moves (left by `columns`, down one).
    static func joinRows(_ rows: [[UInt8]], columns: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows.reduce(0) { $0 + $1.count + 10 })
        for (index, line) in rows.enumerated() {
            if index > 0 { out += EscapeSequence.csi("\(columns)D") + EscapeSequence.csi("B") }
            out += line
        }
        return out
    }
}
