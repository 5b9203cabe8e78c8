import ImageCodecs
import TerminalGraphics

/// Encoding the next screen ahead: while nothing else happens, the pictures of the prefetch window's
/// items whose images the memory cache already holds are encoded on the paint queue, into the
/// painter's encoded-output cache (`CellPictures.encodeAhead`). A PageDown then shows them in its
/// first frame instead of placeholders followed by a second frame of images.
extension GalleryApp {
    /// Encodes ahead when idle: no cell loading, no key waiting for its frame, no fling.
    func encodeAheadWhenIdle() {
        guard status.pendingCells == 0, !keyLatency.isWaiting, !pacing.holdingDownloads, !dirty, !repaintAll else { return }
        let rect = model.fullView != nil ? model.layout.fullViewImage : model.placements.first?.image
        guard let rect, !rect.isEmpty else { return }
        let cells = CellSize(columns: rect.columns, rows: rect.rows)
        var ahead: [(index: Int, image: Image)] = []
        for request in model.prefetchWindow() where request.index < model.count && !pictures.wasEncodedAhead(request.index, cells: cells) {
            guard let image = source.cachedImage(for: model.items[request.index], targetSize: request.target),
                  !(model.fullView != nil && image.isAnimated) else { continue }
            ahead.append((request.index, image))
        }
        pictures.encodeAhead(ahead, cells: cells, cellPixels: model.cellPixels)
    }
}
