/// The frame loop's "settled" signal (`EventLog`): what tests wait on before they look at the screen.
extension GalleryApp {
    /// Whether nothing is pending: no cell loading, no download, no paint out, no frame owed, no key
    /// waiting for its frame or half read, no held fling, no prefetch held for the pause or running
    /// (between its release and its download, a prefetch looks in the disk cache: no download counts
    /// it yet), no animation playing, and every byte presented handed to the terminal.
    var isSettled: Bool {
        !dirty && !repaintAll && keyWaiting == nil && !decoder.hasPending && !holdingDownloads
            && status.pendingCells == 0 && status.activeDownloads == 0 && pictures.paintsInFlight == 0
            && pictures.animation.millisecondsToNextFrame(now: Self.now()) == nil
            && screen.outputWritten && !prefetchesWaiting && !source.prefetchesRunning
    }

    /// After each loop step: reports the last frame once the terminal has it, and "settled" once per
    /// new frame or key when nothing is pending.
    func reportProgress() {
        guard let eventLog else { return }
        guard screen.outputWritten else { return }
        if framesPresented != reported.written {
            reported.written = framesPresented
            eventLog.write("frame \(framesPresented) written")
        }
        guard isSettled, reported.settledFrame != framesPresented || reported.settledKeys != keysRead else { return }
        reported.settledFrame = framesPresented
        reported.settledKeys = keysRead
        eventLog.write("settled frame=\(framesPresented) keys=\(keysRead) loads=0 paints=0")
    }
}
