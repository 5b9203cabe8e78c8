import ImageCodecs

extension TerminalCapabilities {
    /// The cell's pixel size and where it came from, first that answers: `TIOCGWINSZ` pixels (when
    /// sane), `CSI 16 t`, `CSI 14 t` (the window's pixels) divided by the window's cells, the known
    /// size of a terminal identified by name (Windows Terminal), else nil: the caller assumes
    /// `PixelSize.fallbackCell` and `--probe` says so.
    static func cellPixelSize(probe: ProbeResult, hints: EnvironmentHints) -> (PixelSize?, String) {
        if let cell = probe.windowCellPixelSize { return (cell, "TIOCGWINSZ") }
        if let cell = probe.replies.cellPixelSize { return (cell, "CSI 16 t") }
        if let window = probe.replies.windowPixelSize, let cells = probe.windowCells,
           let cell = TerminalProbe.sane(columns: cells.columns, rows: cells.rows, xPixels: window.width, yPixels: window.height) {
            return (cell, "CSI 14 t: \(window) px ÷ \(cells) cells")
        }
        if let known = hints.knownCellPixelSize { return (known.size, "known size of \(known.terminal)") }
        return (nil, "assumed: the terminal did not say")
    }
}
