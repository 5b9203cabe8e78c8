/// What other threads tell the UI thread, through its `UIInbox`.
public enum GalleryEvent: Sendable {
    /// An update for the load bound to (`slot`, `generation`); dropped when the slot was rebound since.
    case cell(slot: SlotID, generation: UInt64, update: CellImageUpdate)
    /// A change to the status-bar counters (downloader start/stop events, cache hits, bytes).
    case status(@Sendable (inout StatusInfo) -> Void)
    /// Run `work` on the UI thread (what a `UIExecutor` over the inbox posts: ImageSlot assignments
    /// and completions).
    case work(@Sendable () -> Void)
    /// Stop the frame loop.
    case quit
}

/// Something the terminal reported outside the input stream.
public enum ScreenEvent: Sendable, Hashable {
    /// The terminal was resized (SIGWINCH).
    case resized
    /// A signal asked the program to stop (SIGINT, SIGTERM, SIGHUP).
    case quit(signal: Int32)
}
