import ImageCodecs
import TerminalGraphics

/// Painting and presenting frames: pictures come from the background paint queue; the UI thread
/// composes and writes finished bytes only.
extension GalleryApp {
    /// The painted image for an item, from the per-slot cache when the image and size are unchanged;
    /// the current frame when it is the full view's animation.
    func picture(for binding: SlotBinding, image: Image, cells: CellSize) -> RenderedImage? {
        if animation.slot == binding.slot, image.isAnimated {
            paintAnimation(image, cells: cells)
            // Until its first frame is painted, the still picture below (painted the same way as a
            // thumbnail) stands in.
            if let picture = animation.picture { return picture }
        }
        if let cached = painted[binding.slot], cached.image == image.id, cached.cells == cells { return cached.painted }
        let slot = binding.slot
        if let done = finishedPaints.withLock({ $0.removeValue(forKey: slot) }), done.ticket == paintRequests[slot]?.ticket,
           let result = done.painted {
            painted[slot] = (done.image, done.cells, result)
            if done.image == image.id && done.cells == cells { return result }
        }
        // Encoded already (ahead, while idle, or for another cell): no wait. A request still out for
        // the slot is forgotten, so its late result cannot replace this picture.
        if let ready = painter.painted(image, cells: cells, cellPixels: model.cellPixels) {
            paintRequests[slot] = nil
            painted[slot] = (image.id, cells, ready)
            return ready
        }
        // Encode off the UI thread (sixel and kitty take milliseconds an image); the frame shows the
        // cell's previous picture of the same size, or its placeholder, until the bytes are ready.
        if paintRequests[slot].map({ $0.image != image.id || $0.cells != cells }) ?? true {
            paintTickets += 1
            let ticket = paintTickets
            paintRequests[slot] = (image.id, cells, ticket)
            let painter = painter, inbox = inbox, results = finishedPaints, cellPixels = model.cellPixels
            Self.paintQueue.async {
                let result = painter.paint(image, cells: cells, cellPixels: cellPixels)
                results.withLock { $0[slot] = (ticket, image.id, cells, result) }
                inbox.post(.work {})
            }
        }
        if let previous = painted[slot], previous.cells == cells { return previous.painted }
        return nil
    }

    /// Takes the animation frames the paint queue finished and hands it the ones due next.
    func paintAnimation(_ image: Image, cells: CellSize) {
        for done in finishedAnimationFrames.withLock({ finished in defer { finished.removeAll() }; return finished }) {
            animation.finished(done.frame, image: done.image, cells: done.cells, painted: done.painted)
        }
        animation.paint(for: cells)
        let painter = painter, inbox = inbox, results = finishedAnimationFrames, cellPixels = model.cellPixels
        for frame in animation.framesToPaint() {
            let still = animation.still(frame, of: image)
            Self.paintQueue.async {
                let painted = painter.paint(still, cells: cells, cellPixels: cellPixels)
                results.withLock { $0.append((frame, image.id, cells, painted)) }
                inbox.post(.work {})
            }
        }
    }

    /// Composes and shows a frame.
    func present() {
        let placements = Dictionary(model.placements.map { ($0.index, $0.image) }, uniquingKeysWith: { a, _ in a })
        var frame = composer.compose(model, status: status) { index in
            guard let binding = model.binding(showing: index), let image = images[binding.slot], let rect = placements[index] else { return nil }
            return picture(for: binding, image: image, cells: CellSize(columns: rect.columns, rows: rect.rows))
        }
        frame.released = painter.takeReleasedUploads()
        frame.scroll = scrollSinceLastFrame()
        screen.present(frame, repaintAll: repaintAll)
        framesPresented += 1
        dirty = false
        repaintAll = false
    }

    /// How far the grid scrolled since the last frame, when only that happened to its geometry (same
    /// layout, grid on both frames): whole item rows.
    func scrollSinceLastFrame() -> FrameScroll? {
        let layout = model.layout
        let view = model.fullView == nil ? (layout: layout, scrollRow: model.scrollRow) : nil
        defer { lastGridView = view }
        guard !repaintAll, let view, let last = lastGridView, last.layout == layout else { return nil }
        // The whole screen scrolls (the status bar is drawn again: a line of text): xterm moves sixel
        // pixels when the whole screen scrolls, but erases them when a smaller region does.
        let scroll = FrameScroll(rows: 0..<layout.terminal.rows, lines: (view.scrollRow - last.scrollRow) * layout.itemHeight)
        return scroll.isUseful ? scroll : nil
    }
}
