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
            ("frame", dirty), ("repaint", repaintAll), ("key", keyWaiting != nil),
            ("input", decoder.hasPending), ("fling", pacing.holdingDownloads),
            ("cells", status.pendingCells > 0), ("downloads", status.activeDownloads > 0),
            ("paints", pictures.paintsInFlight > 0),
            ("animation", pictures.animations.isPlaying),
            ("output", !screen.outputWritten), ("prefetches-held", prefetchesWaiting),
            ("prefetches-running", source.prefetchesRunning),
        ]
        return checks.filter(\.1).map(\.0)
    }

    /// After each loop step: reports the last frame once the terminal has it, what is pending when
    /// that changes, and "settled" once per new frame or key when nothing is.
    func reportProgress() {
        guard let eventLog else { return }
        guard screen.outputWritten else { return }
        if framesPresented != reported.written {
            reported.written = framesPresented
            eventLog.write("frame \(framesPresented) written")
        }
        let pending = pendingWork
        if !pending.isEmpty {
            if pending != reported.waiting {
                reported.waiting = pending
                eventLog.write("waiting " + pending.joined(separator: " "))
            }
            reported.settledFrame = -1  // settling again after this is reported, on the same frame too
            return
        }
        reported.waiting = []
        guard reported.settledFrame != framesPresented || reported.settledKeys != keysRead else { return }
        reported.settledFrame = framesPresented
        reported.settledKeys = keysRead
        eventLog.write("settled frame=\(framesPresented) keys=\(keysRead) loads=0 paints=0")
    }
}
