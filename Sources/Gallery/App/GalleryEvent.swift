/// What other threads tell the UI thread, through its `UIInbox`.
public enum GalleryEvent: Sendable {
    /// A change to the status-bar counters (downloader start/stop events, cache hits, bytes).
    case status(@Sendable (inout StatusInfo) -> Void)
    /// Run `work` on the UI thread: what a `UIExecutor` over the inbox posts — an `ImageSlot`'s
    /// progress and completions, which it drops there when their load was cancelled or replaced, and
    /// otherwise hands to the cell (the one trip of a load update to the UI thread).
    case work(@Sendable () -> Void)
    /// A picture the paint queue finished (`CellPictures`): taken when still wanted.
    case painted(PaintResult)
    /// More lines of a list still arriving on a pipe (`StreamingList`).
    case moreItems(URLListIndex)
    /// A chunk of the `/` filter scan's matches (`GalleryApp+Filter`).
    case filterResults(FilterResults)
    /// The pipe the list came on closed.
    case inputEnded
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
