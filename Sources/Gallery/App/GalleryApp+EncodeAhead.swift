import ImageCodecs
import TerminalGraphics

/// Encoding the next screen ahead: while nothing else happens, the pictures of the prefetch window's
/// items whose images the memory cache already holds are encoded on the paint queue, into the
/// painter's encoded-output cache. A PageDown then shows them in its first frame (`picture` finds
/// them there) instead of placeholders followed by a second frame of images.
extension GalleryApp {
    /// Encodes ahead when idle: no cell loading, no key waiting for its frame, no fling.
    func encodeAheadWhenIdle() {
        guard status.pendingCells == 0, keyWaiting == nil, !holdingDownloads, !dirty, !repaintAll else { return }
        let rect = model.fullView != nil ? model.layout.fullViewImage : model.placements.first?.image
        guard let rect, !rect.isEmpty else { return }
        let cells = CellSize(columns: rect.columns, rows: rect.rows)
        if encodedAhead.count > 4096 { encodedAhead.removeAll() }
        let painter = painter, cellPixels = model.cellPixels
        for request in model.prefetchWindow() where request.index < model.count && encodedAhead[request.index] != cells {
            guard let image = source.cachedImage(for: model.items[request.index], targetSize: request.target),
                  !(model.fullView != nil && image.isAnimated) else { continue }
            encodedAhead[request.index] = cells
            guard painter.painted(image, cells: cells, cellPixels: cellPixels) == nil else { continue }
            Self.paintQueue.async { _ = painter.paint(image, cells: cells, cellPixels: cellPixels) }
        }
    }
}
