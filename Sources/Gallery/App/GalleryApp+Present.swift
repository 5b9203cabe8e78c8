import ImageCodecs
import TerminalGraphics

/// Presenting frames: pictures come from `CellPictures` (painted on the background paint queue); the
/// UI thread composes and writes finished bytes only.
extension GalleryApp {
    /// Composes and shows a frame, and checks the paint invariant on it.
    func present() {
        let rects = Dictionary(model.placements.map { ($0.index, $0.image) }, uniquingKeysWith: { a, _ in a })
        let cellPixels = model.cellPixels, now = Self.now()
        var frame = composer.compose(model, status: status) { index in
            guard let binding = model.binding(showing: index), let rect = rects[index] else { return nil }
            return pictures.picture(for: binding.slot, cells: CellSize(columns: rect.columns, rows: rect.rows),
                                    cellPixels: cellPixels, now: now)
        }
        pictures.paintAnimationFrames(cellPixels: cellPixels)
        frame.released = pictures.painter.takeReleasedUploads()
        frame.scroll = scrollSinceLastFrame()
        frame.animationsPlay = !pictures.animations.isPaused
        checkPaintInvariant(frame)
        screen.present(frame, repaintAll: repaintAll)
        frames.presentedFrame()
    }

    /// The invariant of the paint path: after every frame, each visible cell whose image is final is
    /// on screen (a placement of this frame) or has a paint in flight for its current binding. A
    /// breach is recorded (tests and the random exploration read `paintInvariantBreaches`).
    func checkPaintInvariant(_ frame: Frame) {
        let placed = frame.placements.map(\.rect)
        for place in model.placements where !place.image.isEmpty {
            guard model.items[place.index].state == .final, let binding = model.binding(showing: place.index),
                  pictures.image(of: binding.slot) != nil else { continue }
            if placed.contains(where: { $0.intersects(place.image) }) { continue }
            if pictures.isShownOrPainting(binding.slot, cells: CellSize(columns: place.image.columns, rows: place.image.rows)) { continue }
            if frames.paintInvariantBreaches.count < 64 {
                frames.paintInvariantBreaches.append("frame \(framesPresented): item \(place.index) (\(binding.slot)) final but neither shown nor painting")
            }
        }
    }

    /// How far the grid scrolled since the last frame, when only that happened to its geometry (same
    /// layout, grid on both frames): whole item rows.
    func scrollSinceLastFrame() -> FrameScroll? {
        let layout = model.layout
        let view = model.fullView == nil ? (layout: layout, scrollRow: model.scrollRow) : nil
        defer { frames.lastGridView = view }
        guard !repaintAll, let view, let last = frames.lastGridView, last.layout == layout else { return nil }
        // The whole screen scrolls (the status bar is drawn again: a line of text): xterm moves sixel
        // pixels when the whole screen scrolls, but erases them when a smaller region does.
        let scroll = FrameScroll(rows: 0..<layout.terminal.rows, lines: (view.scrollRow - last.scrollRow) * layout.itemHeight)
        return scroll.isUseful ? scroll : nil
    }
}
