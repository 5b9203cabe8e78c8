/// Pacing against the two things slower than the loop: the terminal (frames wait while it is far
/// behind, `TerminalOutput`) and the network (a fling holds new downloads until the keys pause).
extension GalleryApp {
    /// A key changed which items are bound: a fling holds new downloads (`LoadPacing`).
    func screenChangedByKey(at now: Double) {
        if pacing.screenChangedByKey(at: now) { source.holdDownloads(true) }
    }

    /// Releases held downloads once the keys paused.
    func releaseDownloadsAfterFling(now: Double) {
        if pacing.releasesDownloads(now: now) { source.holdDownloads(false) }
    }

    /// Holds or releases prefetches as the screen changes and completes.
    func pacePrefetches(now: Double, screenChanged: Bool) {
        if let hold = pacing.pacePrefetches(now: now, screenChanged: screenChanged, screenLoading: status.pendingCells > 0) {
            source.holdPrefetches(hold)
        }
    }

    /// Whether held prefetches are still to start (the settled signal waits for them).
    var prefetchesWaiting: Bool { pacing.holdingPrefetches && !model.prefetchWindow().isEmpty }

    /// Bytes of earlier frames the terminal may still hold back when a key's frame is presented:
    /// more, and the key waits (with the keys after it) until the terminal has caught up.
    static let keyFrameBacklogLimit = 256 << 10

    /// Whether a frame may be presented now: frames that only follow loads wait until the terminal
    /// has taken every earlier byte (so a slow terminal gets fewer, later frames, not a growing
    /// queue); a key's frame goes out unless the terminal is far behind.
    func terminalKeepsUp(forKey key: Bool) -> Bool {
        let backlog = screen.outputBacklog
        return backlog == 0 || (key && backlog <= Self.keyFrameBacklogLimit)
    }
}
