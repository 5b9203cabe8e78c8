/// What the status bar reports besides the position: downloader activity and counters. Filled by the
/// frame loop from downloader and cache events.
public struct StatusInfo: Sendable, Hashable {
    /// Transfers running now.
    public var activeDownloads = 0
    /// Transfers waiting for a slot.
    public var queuedDownloads = 0
    /// Items whose image came from the memory or disk cache (each item once).
    public var cacheHits = 0
    /// Bytes received so far.
    public var bytesReceived: Int64 = 0
    /// Failed loads.
    public var failures = 0
    /// Visible cells still loading (shown when the downloader reports nothing itself).
    public var pendingCells = 0
    /// Advances while something is active (drives the spinner).
    public var spinnerPhase = 0
    /// A short note (sanitized when set), e.g. "2 bad lines in the list".
    public var message: String?
    /// Set when the disk cache is off or degraded ("disk cache degraded: write failed (No space left
    /// on device)"); images then come from memory and the network.
    public var diskNote: String?
    /// Graphics commands the terminal refused (kitty error replies): 0 unless a cell went blank.
    public var graphicsErrors = 0
    /// The list is still arriving on a pipe (the count grows).
    public var readingInput = false

    /// Creates empty counters.
    public init() {}

    /// The spinner character for the current phase.
    public var spinner: String {
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        return frames[((spinnerPhase % frames.count) + frames.count) % frames.count]
    }
}
