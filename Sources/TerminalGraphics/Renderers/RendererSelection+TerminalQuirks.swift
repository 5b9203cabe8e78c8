extension RendererSelection {
    /// Whether the terminal also moves this renderer's output when a region scrolls *down* (`CSI n T`,
    /// the view going up the list). Known to hold: text kinds, kitty (placed again by id), mlterm's
    /// sixel, and foot's (it keeps each sixel at a row of its grid, which a scroll moves either way).
    /// Not xterm: a scroll down moves its sixel pixels on screen but not its record of them
    /// (`RevScroll` and `InsertLine` have no `scroll_displayed_graphics`; only `xtermScroll` does),
    /// and its later repaints from that record (the band a scroll exposes, a flushed scroll) bring the
    /// old pictures back where they were: writing spaces over the exposed band clears the record
    /// there only, and the real-terminal oracle still found old pictures in moved cells and gaps
    /// (71,779 px). There a scroll down repaints; the forward scroll keeps its saving.
    public func scrollsBackWithText(terminal name: String?) -> Bool {
        guard scrollsWithText(terminal: name) else { return false }
        guard case .sixel = kind else { return true }
        let name = name?.lowercased() ?? ""
        return name.contains("mlterm") || name.contains("foot")
    }
}

extension RendererSelection {
    /// Whether text written to some cells of a row leaves this renderer's output in the row's other
    /// cells alone, so only images under changed text need sending again: text kinds (they are text)
    /// and kitty (text never erases its images). Not sixel: in the real-terminal oracles an image beside
    /// changed text went blank until Ctrl-L, in mlterm and in xterm alike (`LoadingAndResizeOracleTests`),
    /// so there every image on a changed row is sent again.
    public func textOverwritesOnlyItsCells(terminal name: String?) -> Bool {
        switch kind {
        case .halfBlock, .quadrant, .sextant, .ascii, .kitty, .kittyPlaceholders: return true
        case .sixel, .iterm2: return false  // iTerm2 images: not measured, treated as sixel
        }
    }
}
