import Foundation
import Locking
import ImageCodecs
import TerminalGraphics

/// `--print` (and the non-tty mode): a one-shot contact sheet written to an output, images drawn by
/// the painter (half blocks or ASCII as text rows; sixel or kitty bitmaps into rows reserved with
/// newlines first, so nothing scrolls under an image) with captions under them, row after row; or,
/// for terminals without colours (`TERM=dumb`), captions only. Exits when every image is final.
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
                       load: @escaping @Sendable (URLListEntry, PixelSize?) -> Result<(Image, ImageDetails), LoadFailure>,
                       write: (String) -> Void) -> Int {
        let layout = GalleryLayout(mode: .grid, terminal: CellSize(columns: width, rows: 10_000), cellPixels: cellPixels, columnsOverride: columns)
        let imageRows = depth == nil ? 0 : min(layout.imageRows, max(1, layout.cellWidth))
        let target = CellRect(column: 0, row: 0, columns: layout.cellWidth, rows: imageRows).pixelSize(cellPixels: cellPixels)
        let painter = self.painter ?? RendererPainter(renderer: HalfBlockRenderer(colorDepth: depth ?? .truecolor))
        var failures = 0
        var start = 0
        var uploaded = Set<UInt32>()
        let loads = PendingLoads(entries, target: depth == nil ? nil : target, load: load,
                                 lookahead: max(lookahead, 2 * layout.columns))
        while start < entries.count {
            let row = Array(entries[start..<min(entries.count, start + layout.columns)])
            let results = (start..<start + row.count).map { loads.result(at: $0) }
            var items: [GalleryItem] = []
            var pictures: [RenderedImage?] = []
            for (entry, result) in zip(row, results) {
                var item = GalleryItem(entry: entry)
                switch result {
                case .success(let (image, details)):
                    item.state = .final
                    item.pixelSize = details.pixelSize
                    item.byteCount = details.byteCount
                    pictures.append(imageRows > 0 ? painter.paint(image, cells: CellSize(columns: layout.cellWidth, rows: imageRows), cellPixels: cellPixels) : nil)
                case .failure(let failure):
                    item.state = .failure(failure.message)
                    failures += 1
                    pictures.append(nil)
                }
                items.append(item)
            }
            write(lines(items: items, pictures: pictures, layout: layout, imageRows: imageRows, firstIndex: start,
                        uploaded: &uploaded).joined(separator: "\n") + "\n")
            start += layout.columns
        }
        return failures
    }

    /// The text lines of one grid row.
    func lines(items: [GalleryItem], pictures: [RenderedImage?], layout: GalleryLayout, imageRows: Int, firstIndex: Int = 0) -> [String] {
        var uploaded = Set<UInt32>()
        return lines(items: items, pictures: pictures, layout: layout, imageRows: imageRows, firstIndex: firstIndex, uploaded: &uploaded)
    }

    /// The text lines of one grid row; `uploaded` holds the kitty images already sent by this sheet
    /// (sending an id again would replace it and delete its earlier placements).
    func lines(items: [GalleryItem], pictures: [RenderedImage?], layout: GalleryLayout, imageRows: Int, firstIndex: Int,
               uploaded: inout Set<UInt32>) -> [String] {
        let margin = String(repeating: " ", count: layout.leftMargin)
        let gap = String(repeating: " ", count: layout.gap)
        var out: [String] = []
        let bitmaps = pictures.contains { $0.map(Self.isBitmap) ?? false }
        if bitmaps { out.append(bitmapRows(pictures, layout: layout, imageRows: imageRows, firstIndex: firstIndex, uploaded: &uploaded)) }
        for r in 0..<imageRows where !bitmaps {
            var line = margin
            for (column, picture) in pictures.enumerated() {
                if column > 0 { line += gap }
                guard let picture else {
                    line += String(repeating: " ", count: layout.cellWidth)
                    continue
                }
                let top = (imageRows - picture.cells.rows) / 2
                let left = (layout.cellWidth - picture.cells.columns) / 2
                if r >= top, r - top < picture.rows.count {
                    line += String(repeating: " ", count: left) + String(decoding: picture.rows[r - top], as: UTF8.self)
                    line += String(repeating: " ", count: layout.cellWidth - left - picture.cells.columns)
                } else {
                    line += String(repeating: " ", count: layout.cellWidth)
                }
            }
            out.append(line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
        }
        let titles = items.map { TerminalText.pad($0.title, width: layout.cellWidth) }
        let details = items.map { TerminalText.pad(($0.state.isSettled && $0.state != .final ? "✗ " : "") + $0.details, width: layout.cellWidth) }
        for captionLine in [titles, details] {
            let joined = margin + captionLine.joined(separator: gap)
            out.append(joined.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
        }
        out.append("")
        return out
    }

    static func isBitmap(_ picture: RenderedImage) -> Bool { picture.rows.isEmpty && !picture.bytes.isEmpty }

    /// The image rows of a grid row of bitmaps (sixel, kitty), as one string: `imageRows` newlines
    /// (the screen scrolls now, not under an image), back up, each image drawn from its cell's
    /// top-left between save and restore cursor, then down to the last image row. kitty images are
    /// transmitted and placed with a placement id per entry (the same image twice shows twice).
    func bitmapRows(_ pictures: [RenderedImage?], layout: GalleryLayout, imageRows: Int, firstIndex: Int,
                    uploaded: inout Set<UInt32>) -> String {
        func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
        var out = String(repeating: "\n", count: imageRows) + text(EscapeSequence.cursorUp(imageRows))
        for (column, picture) in pictures.enumerated() {
            guard let picture, Self.isBitmap(picture) else { continue }
            let top = max(0, (imageRows - picture.cells.rows) / 2)
            let left = layout.leftMargin + column * (layout.cellWidth + layout.gap) + max(0, (layout.cellWidth - picture.cells.columns) / 2)
            var bytes = picture.bytes
            if let upload = picture.upload {
                bytes = (uploaded.insert(upload.id).inserted ? upload.bytes : []) + KittyRenderer.placement(
                    imageID: upload.id, placementID: UInt32(truncatingIfNeeded: firstIndex + column + 1),
                    cells: CellSize(columns: picture.cells.columns, rows: picture.cells.rows), tmuxPassthrough: upload.tmuxPassthrough)
            }
            out += text(EscapeSequence.saveCursor + EscapeSequence.cursorDown(top) + EscapeSequence.cursorColumn(left + 1) + bytes
                        + EscapeSequence.restoreCursor)
        }
        return out + text(EscapeSequence.cursorDown(imageRows - 1))
    }
}

/// Loads of a list's entries started ahead of their use, `lookahead` at a time. Holds only the loads
/// in flight and the results not taken yet (a window of about `lookahead`), never one per entry.
///
/// One thread per running load, not GCD workers: `load` blocks until the image arrives, and the
/// loaders themselves need GCD's few workers (about one per core here) to get it there.
/// `@unchecked Sendable`: `started` and `done` are touched only by the thread that takes results;
/// `results` is a `Locked`.
final class PendingLoads: @unchecked Sendable {
    typealias Outcome = Result<(Image, ImageDetails), LoadFailure>
    private let entries: [URLListEntry]
    private let target: PixelSize?
    private let load: @Sendable (URLListEntry, PixelSize?) -> Outcome
    private let lookahead: Int
    private let results = Locked<[Int: Outcome]>([:])
    private var done: [Int: DispatchSemaphore] = [:]
    private var started = 0

    init(_ entries: [URLListEntry], target: PixelSize?, load: @escaping @Sendable (URLListEntry, PixelSize?) -> Outcome,
         lookahead: Int) {
        self.entries = entries
        self.target = target
        self.load = load
        self.lookahead = max(1, lookahead)
    }

    /// Waits for entry `index` (starting it, and the ones after it within the lookahead, if needed)
    /// and hands its result over (each index once).
    func result(at index: Int) -> Outcome {
        while started < min(entries.count, index + lookahead) { start(started); started += 1 }
        done.removeValue(forKey: index)?.wait()
        return results.withLock { $0.removeValue(forKey: index) } ?? .failure(LoadFailure(message: "not loaded"))
    }

    private func start(_ index: Int) {
        let signal = DispatchSemaphore(value: 0)
        done[index] = signal
        let (entry, target, load, results) = (entries[index], target, load, results)
        let thread = Thread {
            let outcome = load(entry, target)
            results.withLock { $0[index] = outcome }
            signal.signal()
        }
        thread.name = "sdgallery.sheet.load"
        thread.start()
    }
}
