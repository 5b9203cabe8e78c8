import Foundation
import Locking
import ImageCodecs
import TerminalGraphics

/// `--print` (and the non-tty mode): a one-shot contact sheet written to an output, images drawn by
/// the painter (half blocks or ASCII as text rows; sixel or kitty bitmaps into rows reserved with
/// newlines first, so nothing scrolls under an image) with captions under them, row after row; or,
/// for terminals without colours (`TERM=dumb`), captions only. Exits when every image is final.
/// For tmux drawing sixel itself a row's bitmaps go as one (`rowImageWidth`).
public struct ContactSheet: Sendable {
    /// Output width in columns.
    public var width: Int
    /// Fixed number of columns (`--columns`).
    public var columns: Int?
    /// Pixel size of one cell.
    public var cellPixels: PixelSize
    /// Colour depth; nil for plain text (no escape sequences at all).
    public var depth: ColorDepth?

    /// What draws each image (default: half blocks in `depth`).
    public var painter: CellPainter?

    /// How many entries load ahead of the row being written (at least two rows' worth). The
    /// downloader's concurrency limit and the decode queues bound the real parallelism.
    public var lookahead = 16

    /// When set, each grid row's images are drawn as one bitmap at most this many pixels wide (more
    /// when the row is wider), not one per entry: for tmux drawing sixel itself, which keeps only a
    /// few images (`TmuxImages`, `ContactSheet+RowImages`). nil: one bitmap per entry.
    public var rowImageWidth: Int?

    /// Creates a sheet.
    public init(width: Int, columns: Int? = nil, cellPixels: PixelSize = PixelSize(width: 8, height: 16), depth: ColorDepth?) {
        self.width = max(1, width)
        self.columns = columns
        self.cellPixels = cellPixels
        self.depth = depth
    }

    /// Loads, paints and writes every entry, a grid row at a time, in order. Loads run ahead of the
    /// writing by `lookahead` entries (at least two rows), so the network and both cores stay busy
    /// while a row waits for its slowest image. Returns the number of entries that failed.
    @discardableResult
    public func render(_ entries: [URLListEntry],
                       load: @escaping @Sendable (URLListEntry, PixelSize?) async -> Result<(Image, ImageDetails), LoadFailure>,
                       write: (String) -> Void) -> Int {
        render(SheetEntries(entries), load: load, write: write)
    }

    /// `render` over entries read as they are needed (a list's index, a stream): only the rows
    /// between the one written and the look-ahead are held.
    @discardableResult
    func render(_ entries: SheetEntries,
                load: @escaping @Sendable (URLListEntry, PixelSize?) async -> Result<(Image, ImageDetails), LoadFailure>,
                write: (String) -> Void) -> Int {
        let (layout, imageRows) = sheetLayout()
        let painter = self.painter ?? RendererPainter(renderer: HalfBlockRenderer(colorDepth: depth ?? .truecolor))
        let target = CellRect(column: 0, row: 0, columns: layout.cellWidth, rows: imageRows)
            .pixelSize(cellPixels: DecodePixels.perCell(cellPixels: cellPixels, samples: painter.samplesPerCell))
        var failures = 0
        var start = 0
        var uploaded = Set<UInt32>()
        let loads = PendingLoads(entries, target: depth == nil ? nil : target, load: load,
                                 lookahead: max(lookahead, 2 * layout.columns))
        while entries.entry(at: start) != nil {
            let row = (start..<start + layout.columns).compactMap { entries.entry(at: $0) }
            let results = (start..<start + row.count).map { loads.result(at: $0) }
            entries.release(below: start + row.count)
            var items: [GalleryItem] = []
            var pictures: [RenderedImage?] = []
            var composing: [RowImage] = []
            for (offset, (entry, result)) in zip(row, results).enumerated() {
                var item = GalleryItem(entry: entry)
                var picture: RenderedImage?
                switch result {
                case .success(let (image, details)):
                    item.state = .final
                    item.pixelSize = details.pixelSize
                    item.byteCount = details.byteCount
                    if imageRows > 0, rowImageWidth != nil, let place = layout.placement(of: start + offset, scrollRow: layout.row(of: start + offset)) {
                        composing.append(RowImage(offset: offset, image: image, rect: CellRect(column: place.image.column, row: 0, columns: place.image.columns, rows: imageRows)))
                    } else if imageRows > 0 {
                        picture = painter.paint(image, cells: CellSize(columns: layout.cellWidth, rows: imageRows), cellPixels: cellPixels)
                    }
                case .failure(let failure):
                    item.state = .failure(failure.message)
                    failures += 1
                }
                pictures.append(picture)
                items.append(item)
            }
            let composed = Self.composed(composing, imageRows: imageRows, cellPixels: cellPixels, maxWidth: rowImageWidth ?? 0).compactMap { bitmap in
                painter.paint(bitmap.image, cells: CellSize(columns: bitmap.rect.columns, rows: imageRows), cellPixels: cellPixels)
                    .map { (offset: bitmap.offsets[0], placement: BitmapPlacement(column: bitmap.rect.column, row: 0, image: $0)) }
            }
            write(lines(items: items, pictures: pictures, composed: composed, layout: layout, imageRows: imageRows, firstIndex: start,
                        uploaded: &uploaded).joined(separator: "\n") + "\n")
            start += layout.columns
        }
        return failures
    }

    /// The grid the sheet lays its rows out in, and the image rows of each (none without colours).
    func sheetLayout() -> (layout: GalleryLayout, imageRows: Int) {
        let layout = GalleryLayout(mode: .grid, terminal: CellSize(columns: width, rows: 10_000), cellPixels: cellPixels, columnsOverride: columns)
        return (layout, depth == nil ? 0 : min(layout.imageRows, max(1, layout.cellWidth)))
    }

    /// The most bitmaps a screen of `screenRows` rows can show at once of a sheet of `entries`: a
    /// grid row's images are one each, or their pieces at most `rowImageWidth` wide.
    public func bitmapsPerScreen(screenRows: Int, entries: Int) -> Int {
        let (layout, imageRows) = sheetLayout()
        let height = imageRows + layout.captionRows + 1
        let sheetRows = (entries + layout.columns - 1) / max(1, layout.columns)
        let rowsShown = min(sheetRows, (max(1, screenRows) - 1 + height - 1) / height + 1)
        guard let rowImageWidth else { return min(entries, rowsShown * layout.columns) }
        let row = (0..<layout.columns).compactMap { layout.placement(of: $0, scrollRow: 0)?.image }
        return rowsShown * Self.pieces(row, cellWidth: cellPixels.width, maxWidth: rowImageWidth).count
    }

    /// The text lines of one grid row, laid out as the gallery lays out its grid (`GalleryLayout`'s
    /// rectangles, `FrameComposer`'s placements and captions): the image rows, the captions, a blank
    /// line. `composed` are bitmaps placed as they are (a row's images drawn as one, by row offset of
    /// their first image). `uploaded` holds the kitty images already sent by this sheet (sending an
    /// id again would replace it and delete its earlier placements).
    func lines(items: [GalleryItem], pictures: [RenderedImage?], composed: [(offset: Int, placement: BitmapPlacement)] = [],
               layout: GalleryLayout, imageRows: Int, firstIndex: Int, uploaded: inout Set<UInt32>) -> [String] {
        var composer = FrameComposer(theme: .monochrome)
        composer.marksFailures = true
        var grid = CellGrid(size: CellSize(columns: layout.terminal.columns, rows: imageRows + layout.captionRows))
        var placed: [(offset: Int, placement: BitmapPlacement)] = []
        for (offset, item) in items.enumerated() {
            let index = firstIndex + offset
            guard let place = layout.placement(of: index, scrollRow: layout.row(of: index)) else { continue }
            let image = CellRect(column: place.image.column, row: 0, columns: place.image.columns, rows: imageRows)
            if offset < pictures.count, let picture = pictures[offset], !image.isEmpty {
                placed.append((offset, FrameComposer.placement(of: picture, in: image)))
            }
            composer.drawGridCaption(item, selected: false, in: CellRect(column: place.text.column, row: imageRows, columns: place.text.columns,
                                                                         rows: place.text.rows), grid: &grid)
        }
        placed += composed
        var out: [String] = []
        if placed.contains(where: { Self.isBitmap($0.placement.image) }) {
            out.append(bitmapRows(placed, imageRows: imageRows, firstIndex: firstIndex, uploaded: &uploaded))
        } else {
            // kitty's Unicode placeholders are text over image data uploaded first (once per image).
            let uploads = placed.compactMap(\.placement.image.upload).filter { uploaded.insert($0.id).inserted }.flatMap(\.bytes)
            for row in 0..<imageRows {
                out.append((row == 0 ? String(decoding: uploads, as: UTF8.self) : "") + Self.trimmed(textRow(row, placed.map(\.placement))))
            }
        }
        for row in imageRows..<grid.size.rows { out.append(Self.trimmed(grid.line(row))) }
        out.append("")
        return out
    }

    /// One image row of text pictures (half blocks, ASCII): each picture's line at its column.
    func textRow(_ row: Int, _ placements: [BitmapPlacement]) -> String {
        var line = ""
        var column = 0
        for placement in placements.sorted(by: { $0.rect.column < $1.rect.column }) {
            let offset = row - placement.rect.row
            guard offset >= 0, offset < placement.image.rows.count else { continue }
            line += String(repeating: " ", count: max(0, placement.rect.column - column)) + String(decoding: placement.image.rows[offset], as: UTF8.self)
            column = placement.rect.column + placement.image.cells.columns
        }
        return line
    }

    static func trimmed(_ line: String) -> String { line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }

    static func isBitmap(_ picture: RenderedImage) -> Bool { picture.rows.isEmpty && !picture.bytes.isEmpty }

    /// The image rows of a grid row of bitmaps (sixel, kitty), as one string: `imageRows` newlines
    /// (the screen scrolls now, not under an image), back up, each image drawn from its placement's
    /// top-left between save and restore cursor, then down to the last image row. kitty images are
    /// transmitted and placed with a placement id per entry (the same image twice shows twice).
    func bitmapRows(_ placed: [(offset: Int, placement: BitmapPlacement)], imageRows: Int, firstIndex: Int,
                    uploaded: inout Set<UInt32>) -> String {
        func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
        var out = String(repeating: "\n", count: imageRows) + text(EscapeSequence.cursorUp(imageRows))
        for (offset, placement) in placed where Self.isBitmap(placement.image) {
            let picture = placement.image
            let bytes = picture.atCursor(placementID: UInt32(truncatingIfNeeded: firstIndex + offset + 1),
                                         sendingData: picture.upload.map { uploaded.insert($0.id).inserted } ?? false)
            out += text(EscapeSequence.saveCursor + EscapeSequence.cursorDown(placement.rect.row) + EscapeSequence.cursorColumn(placement.rect.column + 1)
                        + bytes + EscapeSequence.restoreCursor)
        }
        return out + text(EscapeSequence.cursorDown(imageRows - 1))
    }
}

/// Loads of a list's entries started ahead of their use, `lookahead` at a time. Holds only the loads
/// in flight and the results not taken yet (a window of about `lookahead`), never one per entry.
///
/// One task per running load (`load` awaits the manager; no thread waits for an image), and the
/// sheet's own thread waits only for the entry it writes next.
/// `@unchecked Sendable`: `started` and `done` are touched only by the thread that takes results;
/// `results` is a `Locked`.
final class PendingLoads: @unchecked Sendable {
    typealias Outcome = Result<(Image, ImageDetails), LoadFailure>
    private let entries: SheetEntries
    private let target: PixelSize?
    private let load: @Sendable (URLListEntry, PixelSize?) async -> Outcome
    private let lookahead: Int
    private let results = Locked<[Int: Outcome]>([:])
    private var done: [Int: DispatchSemaphore] = [:]
    private var started = 0

    init(_ entries: SheetEntries, target: PixelSize?, load: @escaping @Sendable (URLListEntry, PixelSize?) async -> Outcome,
         lookahead: Int) {
        self.entries = entries
        self.target = target
        self.load = load
        self.lookahead = max(1, lookahead)
    }

    /// Waits for entry `index` (starting it, and the ones after it within the lookahead, if needed)
    /// and hands its result over (each index once).
    func result(at index: Int) -> Outcome {
        // The entry asked for may wait for its line; the ones ahead only start when already there.
        while started < index + lookahead, let entry = entries.entry(at: started, wait: started <= index) {
            start(started, entry)
            started += 1
        }
        done.removeValue(forKey: index)?.wait()
        return results.withLock { $0.removeValue(forKey: index) } ?? .failure(LoadFailure(message: "not loaded"))
    }

    private func start(_ index: Int, _ entry: URLListEntry) {
        let signal = DispatchSemaphore(value: 0)
        done[index] = signal
        let (target, load, results) = (target, load, results)
        Task.detached {
            let outcome = await load(entry, target)
            results.withLock { $0[index] = outcome }
            signal.signal()
        }
    }
}
