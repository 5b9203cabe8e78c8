import ImageCodecs

extension TerminalProfile {
    /// What re-asks a cell size learnt from a reply: `CSI 16 t` (cell pixels), `CSI 14 t` (window pixels).
    public static let cellSizeQuery: [UInt8] = EscapeSequence.cellSizeQuery + EscapeSequence.windowSizeQuery

    /// The window was resized (`SIGWINCH`; `window` read again). `TIOCGWINSZ` pixels, when sane,
    /// give the cell size at once; a size the terminal told in a reply may have changed with the
    /// window (a VTE font zoom changes it, and only a reply says so): then this returns the query to
    /// send, and `learn` takes the reply when it comes back as input. Until then the last size stays.
    public mutating func resized(to window: WindowSize) -> [UInt8]? {
        self.window = window
        if let cell = window.cellPixelSize {
            cellPixelSize = cell
            cellSizeSource = .windowSize
            return nil
        }
        if cellSizeSource == .windowSize {
            // The pixels went away (tmux attached from elsewhere): back to what the probe knew.
            cellPixelSize = capabilities.effectiveCellPixelSize
            cellSizeSource = capabilities.cellSizeSource
        }
        return cellSizeSource.isReply || capabilities.cellSizeSource.isReply ? Self.cellSizeQuery : nil
    }

    /// Takes a `CSI 6 ; h ; w t` or `CSI 4 ; h ; w t` reply that arrived as input; true when the
    /// cell size changed (the grid must be laid out again). The chain's order holds: `TIOCGWINSZ`
    /// pixels win, a cell report beats a window report divided by the cells.
    public mutating func learn(_ replies: ProbeReplies) -> Bool {
        guard window?.cellPixelSize == nil else { return false }
        var learnt: (PixelSize, CellSizeSource)?
        if let cell = replies.cellPixelSize {
            learnt = (cell, .cellReport)
        } else if let pixels = replies.windowPixelSize, cellSizeSource != .cellReport,
                  let cells = window?.cells, let cell = WindowSize.cell(of: pixels, over: cells) {
            learnt = (cell, .windowReport(window: pixels, cells: cells))
        }
        guard let (cell, source) = learnt else { return false }
        cellSizeSource = source
        guard cell != cellPixelSize else { return false }
        cellPixelSize = cell
        return true
    }
}
