import ImageCodecs

extension TerminalCapabilities {
    /// The cell's pixel size and where it came from, first that answers: `TIOCGWINSZ` pixels (when
    /// sane), `CSI 16 t`, `CSI 14 t` (the window's pixels) divided by the window's cells, the known
    /// size of a terminal identified by name (Windows Terminal), else nil: the caller assumes
    /// `PixelSize.fallbackCell` and `--probe` says so.
    static func cellPixelSize(windowCell: PixelSize?, windowCells: CellSize?, replies: ProbeReplies,
                              hints: EnvironmentHints) -> (PixelSize?, CellSizeSource) {
        if let cell = windowCell { return (cell, .windowSize) }
        if let cell = replies.cellPixelSize { return (cell, .cellReport) }
        if let window = replies.windowPixelSize, let cells = windowCells, let cell = WindowSize.cell(of: window, over: cells) {
            return (cell, .windowReport(window: window, cells: cells))
        }
        if let known = hints.knownCellPixelSize { return (known.size, .known(terminal: known.terminal)) }
        return (nil, .assumed)
    }
}

/// Where a cell size came from (`--probe` names it).
public enum CellSizeSource: Sendable, Hashable, CustomStringConvertible {
    /// `TIOCGWINSZ` pixel fields.
    case windowSize
    /// The reply to `CSI 16 t`.
    case cellReport
    /// The reply to `CSI 14 t` (the window's pixels) divided by the window's cells.
    case windowReport(window: PixelSize, cells: CellSize)
    /// The known size of a terminal identified by name (Windows Terminal).
    case known(terminal: String)
    /// Nobody said: `PixelSize.fallbackCell`.
    case assumed

    /// Whether the terminal told it in a reply, which must be asked again after a resize (a VTE
    /// font zoom changes it; nothing else announces that).
    public var isReply: Bool {
        switch self {
        case .cellReport, .windowReport: true
        case .windowSize, .known, .assumed: false
        }
    }

    /// What `--probe` prints.
    public var description: String {
        switch self {
        case .windowSize: "TIOCGWINSZ"
        case .cellReport: "CSI 16 t"
        case .windowReport(let window, let cells): "CSI 14 t: \(window) px ÷ \(cells) cells"
        case .known(let terminal): "known size of \(terminal)"
        case .assumed: "assumed: the terminal did not say"
        }
    }
}
