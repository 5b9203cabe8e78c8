/// The frame loop's "settled" signal (`EventLog`): what tests wait on before they look at the screen.
extension GalleryApp {
    /// Whether nothing is pending: no cell loading, no download, no paint out, no frame owed, no key
    /// waiting for its frame or half read, no held fling, no prefetch held for the pause or running
    /// (between its release and its download, a prefetch looks in the disk cache: no download counts
    /// it yet), no animation playing, and every byte presented handed to the terminal.
    var isSettled: Bool { pendingWork.isEmpty }

    /// What keeps the loop from settling, one name per kind of work (empty: settled); the event
    /// log's `waiting …` lines, so that a race with the settled signal shows what was still running.
    var pendingWork: [String] {
        let checks: [(String, Bool)] = [
            ("frame", dirty), ("repaint", repaintAll), ("key", keyLatency.isWaiting),
            ("input", input.hasPending), ("fling", pacing.holdingDownloads),
            ("cells", status.pendingCells > 0), ("downloads", status.activeDownloads > 0),
            ("paints", pictures.paintsInFlight > 0),
            ("animation", pictures.animations.isPlaying),
            ("output", !screen.outputWritten), ("prefetches-held", prefetchesWaiting),
            ("prefetches-running", source.prefetchesRunning),
        ]
        return checks.filter(\.1).map(\.0)
    }

    /// After each loop step: reports the last frame once the terminal has it, what is pending when
    /// that changes, and "settled" once per new frame or key when nothing is (`SettleReporter`).
    func reportProgress() {
        // The pending work (which reads the prefetch window) only when a line may be written.
        guard settleReporter.log != nil, screen.outputWritten else { return }
        settleReporter.report(frames: framesPresented, keys: keysRead, pending: pendingWork, outputWritten: screen.outputWritten)
    }
}
