import TerminalGraphics

/// Signals (resize, quit) and inbox events, applied on the UI thread.
extension GalleryApp {
    func handle(_ event: ScreenEvent) {
        switch event {
        case .resized:
            let size = screen.updateSize()
            model.resize(terminal: size, cellPixels: screen.cellPixels)
            pictures.forgetPictures()
            repaintAll = true
        case .quit: quitting = true
        }
    }

    /// Applies one inbox event on the UI thread.
    func handle(_ event: GalleryEvent) {
        switch event {
        case .quit: quitting = true
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
