import ImageCodecs
import TerminalGraphics

/// Where frames are shown. `CursesScreen` is the terminal (the only curses importer); `InMemoryScreen`
/// keeps frames for tests. Used from the UI thread only.
public protocol Screen: AnyObject {
    /// The current size in cells.
    var size: CellSize { get }
    /// Pixel size of one cell (from the terminal when it says, else 8×16).
    var cellPixels: PixelSize { get }
    /// Shows `frame`. With `repaintAll`, everything is rewritten (after a resize or Ctrl-L).
    func present(_ frame: Frame, repaintAll: Bool)
    /// Re-reads the terminal size after SIGWINCH and returns it.
    func updateSize() -> CellSize
    /// Takes the terminal's answer to a cell-size query that arrived as input; true when the cell
    /// size changed (the grid is laid out again).
    func learnCellSize(_ replies: ProbeReplies) -> Bool
    /// Restores the terminal (idempotent).
    func close()
    /// Gives the terminal back and stops the process (job control, as Ctrl-Z does in a shell);
    /// returns when it is continued (`fg`), with the screen taken over again. The next frame must
    /// repaint everything.
    func suspend()
    /// Asks the terminal to put `text` on the system clipboard (OSC 52, where the terminal allows it).
    func copyToClipboard(_ text: String)
    /// Signals received since the last call (resize, quit).
    func takeEvents() -> [ScreenEvent]
    /// Bytes presented that the terminal has not taken yet (`TerminalOutput`); 0 when writes go
    /// straight to the terminal.
    var outputBacklog: Int { get }
    /// The descriptor to poll for POLLOUT while `outputBacklog > 0`; nil when there is none.
    var outputDescriptor: Int32? { get }
    /// Writes what the terminal takes now, without waiting (UI thread).
    func flushOutput()
    /// Whether every byte presented so far has been handed to the terminal (nothing queued or on its
    /// way through the output pipe); what "settled" waits for (`EventLog`).
    var outputWritten: Bool { get }
}

extension Screen {
    /// Nothing queued: `outputBacklog` is 0.
    public var outputWritten: Bool { outputBacklog == 0 }
}

extension Screen {
    /// A screen whose cell size does not come from terminal replies learns nothing.
    public func learnCellSize(_ replies: ProbeReplies) -> Bool { false }
}
