extension RendererSelection {
    /// Whether the terminal also moves this renderer's output when a region scrolls *down* (`CSI n T`,
    /// the view going up the list). xterm moves sixel pixels on screen but not its record of them:
    /// a later write below the exposed band makes it repaint that band from the record, so cells go
    /// blank or old images come back (XTerm 379). There a scroll down repaints instead; the forward
    /// scroll keeps its saving. Known to hold: text kinds, kitty (placed again by id), mlterm's sixel.
    public func scrollsBackWithText(terminal name: String?) -> Bool {
        guard scrollsWithText(terminal: name) else { return false }
        guard case .sixel = kind else { return true }
        return name?.lowercased().contains("mlterm") ?? false
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
