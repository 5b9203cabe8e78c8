import TerminalGraphics

/// Signals (resize, quit) and inbox events, applied on the UI thread.
extension GalleryApp {
    func handle(_ event: ScreenEvent) {
        switch event {
        case .resized:
            escapes.expectReplies(now: Self.now())  // the cell size may be asked again
            _ = screen.updateSize()
            relayout()
        case .quit: quit()
        }
    }

    /// Lays the grid out again for the screen's size and cell size; everything is painted again.
    func relayout() {
        model.resize(terminal: screen.size, cellPixels: screen.cellPixels)
        pictures.forgetPictures()
        repaintAll = true
    }

    /// Applies one inbox event on the UI thread.
    func handle(_ event: GalleryEvent) {
        switch event {
        case .quit: quit()
        case .work(let work):
            work()
            dirty = true
        case .status(let change):
            change(&status)
            dirty = true
        case .moreItems(let index):
            model.appendItems(index)
            dirty = true
        case .painted(let result):
            pictures.accept(result)
            dirty = true
        case .filterResults(let results): receive(results)
        case .inputEnded:
            status.readingInput = false
            dirty = true
        }
    }
}
