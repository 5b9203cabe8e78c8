/// What the user asked for, independent of the key or mouse event that asked.
public enum GalleryAction: Sendable, Hashable {
    /// Move the selection one row up / down, one item left / right.
    case up, down, left, right
    /// One screen up / down.
    case pageUp, pageDown
    /// First / last item.
    case home, end
    /// Open the full view of the selection (Enter).
    case open
    /// Close the help or full view; quit from the grid (q, Esc).
    case back
    /// Quit at once (Ctrl-C).
    case quit
    /// Toggle grid / list (v).
    case toggleView
    /// Toggle the help overlay (?).
    case toggleHelp
    /// Next / previous item (n / p; in the full view, the next image).
    case next, previous
    /// Refresh the selected entry (r) / every visible entry (R).
    case refresh, refreshVisible
    /// Scroll by a number of item rows without moving the selection unless it leaves the screen (wheel).
    case scroll(Int)
    /// Select the item under a screen cell (click).
    case click(column: Int, row: Int)
    /// Select and open the item under a screen cell (double-click).
    case doubleClick(column: Int, row: Int)
    /// Repaint everything (Ctrl-L).
    case redraw
    /// Suspend to the shell (Ctrl-Z); `fg` brings the gallery back, repainted.
    case suspend
    /// Copy the selected image's URL to the clipboard (y).
    case copyURL
    /// Save the selected image's original into the save directory (s).
    case saveOriginal
    /// Pause or play every animation (a).
    case toggleAnimation
    /// Open the filter prompt (/).
    case startFilter
    /// While the filter prompt is open: a typed character, Backspace, Enter (keep), Esc (clear).
    case filterType(Character), filterErase, filterAccept, filterClear
}

/// What the frame loop must do after an action, beyond redrawing.
public struct ActionOutcome: Sendable, Hashable {
    /// The user asked to quit.
    public var quit = false
    /// Slots to reload with `refreshCached` (r / R).
    public var refresh: [SlotBinding] = []
    /// The whole screen must be repainted from scratch.
    public var redraw = false
    /// The model changed (a new frame is needed).
    public var changed = false
    /// The user asked to suspend the program (the frame loop gives the terminal back, stops, and
    /// repaints everything when continued).
    public var suspend = false
    /// Text to put on the clipboard (`y`: the selected image's URL or path).
    public var copy: String?
    /// The image to save (`s`: the selected one).
    public var save: ImageLocation?

    /// Creates an outcome.
    public init(quit: Bool = false, refresh: [SlotBinding] = [], redraw: Bool = false, changed: Bool = false, suspend: Bool = false) {
        self.suspend = suspend
        self.quit = quit
        self.refresh = refresh
        self.redraw = redraw
        self.changed = changed
    }
}
