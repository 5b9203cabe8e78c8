import TerminalGraphics

/// Everything one frame shows: the text grid and the image placements over it.
public struct Frame: Sendable, Hashable {
    /// The text cells.
    public var grid: CellGrid
    /// Images, written after the text.
    public var placements: [BitmapPlacement]
    /// Upload ids whose data the painter dropped: the terminal frees them (kitty `d=I`).
    public var released: [UInt32]
    /// How the content moved since the previous frame, when it moved by whole lines (the grid
    /// scrolled): a screen that can scroll the terminal sends only what the scroll exposed.
    public var scroll: FrameScroll?
    /// Whether the animations the terminal plays itself (kitty) play, or stand on their first frame
    /// (paused with `a`, or the window lost focus).
    public var animationsPlay = true

    /// Creates a frame.
    public init(grid: CellGrid, placements: [BitmapPlacement] = [], released: [UInt32] = [], scroll: FrameScroll? = nil) {
        self.grid = grid
        self.placements = placements
        self.released = released
        self.scroll = scroll
    }
}
