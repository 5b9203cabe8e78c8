import ImageCodecs

/// The bytes that draw one image in a cell rectangle, plus what they cover: what a renderer makes,
/// what the encoded-output cache keeps, and what the gallery's frame writer places and erases.
public struct RenderedImage: Sendable, Hashable {
    /// Which renderer made it.
    public var kind: RendererKind
    /// Everything to emit with the cursor at the rectangle's top-left cell. For kitty this is the
    /// transmission followed by the placement (output without a frame writer, e.g. `--print`); text
    /// kinds move down a row with `CSI n D CSI B` (prefer `positioned(row:column:)` for text near the
    /// right margin).
    public var bytes: [UInt8]
    /// Text kinds: one entry per cell row (SGR + characters, ending with SGR reset), each written with
    /// the cursor at the start of its row. Empty for bitmaps.
    public var rows: [[UInt8]]
    /// Cells actually covered (≤ the requested rectangle).
    public var cells: CellSize
    /// Pixel size that was encoded (for text kinds: the sampling grid).
    public var pixelSize: PixelSize
    /// kitty: the image data the terminal must hold before a placement (sent once per id). Nil for
    /// other kinds.
    public var upload: ImageUpload?
    /// Identity of the content (image, size, renderer), set by whoever places it: equal identities
    /// draw the same thing, so an unchanged placement is not rewritten. 0 when unset.
    public var identity: UInt64
    /// Bytes that remove the image when its placement goes away, for protocols whose images are not
    /// erased by text written over them (kitty: a delete command). Empty for text kinds and sixel.
    public var erase: [UInt8]

    /// Creates a rendered image.
    public init(
        kind: RendererKind, bytes: [UInt8] = [], rows: [[UInt8]] = [], cells: CellSize, pixelSize: PixelSize = PixelSize(width: 0, height: 0),
        identity: UInt64 = 0, erase: [UInt8] = [], upload: ImageUpload? = nil
    ) {
        self.kind = kind
        self.bytes = bytes
        self.rows = rows
        self.cells = cells
        self.pixelSize = pixelSize
        self.upload = upload
        self.identity = identity
        self.erase = erase
    }

    /// Memory cost in bytes (for cost-bounded caches).
    public var cost: Int {
        bytes.count + rows.reduce(0) { $0 + $1.count } + (upload?.bytes.count ?? 0) + erase.count + 64
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
