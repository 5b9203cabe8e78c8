#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// The terminal window as `TIOCGWINSZ` reports it: cells, and the text area's pixels when the
/// terminal fills them in. The one reader of `TIOCGWINSZ` (the probe, the curses screen and the
/// contact sheet all ask here).
public struct WindowSize: Sendable, Hashable {
    /// The window in cells.
    public var cells: CellSize
    /// The text area in pixels; nil when the terminal left the fields 0 (tmux, VTE, most terminals
    /// over ssh).
    public var pixels: PixelSize?

    /// Creates a window size.
    public init(cells: CellSize, pixels: PixelSize? = nil) {
        self.cells = cells
        self.pixels = pixels
    }

    /// `TIOCGWINSZ` of `descriptor`; nil when it is not a terminal or reports 0 cells.
    public static func read(_ descriptor: Int32) -> WindowSize? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        let pixels = size.ws_xpixel > 0 && size.ws_ypixel > 0
            ? PixelSize(width: Int(size.ws_xpixel), height: Int(size.ws_ypixel)) : nil
        return WindowSize(cells: CellSize(columns: Int(size.ws_col), rows: Int(size.ws_row)), pixels: pixels)
    }

    /// The cell size its pixels give, when plausible (`PixelSize.isPlausibleCell`).
    public var cellPixelSize: PixelSize? {
        guard let pixels else { return nil }
        return Self.cell(of: pixels, over: cells)
    }

    /// The cell size of a window of `pixels` over `cells`, or nil when implausible
    /// (`PixelSize.isPlausibleCell`).
    static func cell(of pixels: PixelSize, over cells: CellSize) -> PixelSize? {
        guard cells.columns > 0, cells.rows > 0 else { return nil }
        let cell = PixelSize(width: pixels.width / cells.columns, height: pixels.height / cells.rows)
        return cell.isPlausibleCell ? cell : nil
    }
}
