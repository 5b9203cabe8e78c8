/// Pacing against the two things slower than the loop: the terminal (frames wait while it is far
/// behind, `TerminalOutput`) and the network (a fling holds new downloads until the keys pause).
extension GalleryApp {
    /// Screen changes by keys closer together than this are a fling: downloads are held until the
    /// keys pause this long (key repeat is 25–40 ms apart; a person paging and looking, far more).
    static let flingInterval = 0.15

    /// A key changed which items are bound: a second change within `flingInterval` holds new
    /// downloads until the keys pause (the first key's screen loads at once).
    func screenChangedByKey(at now: Double) {
        if !holdingDownloads, now - lastKeyScreenChange < Self.flingInterval {
            holdingDownloads = true
            source.holdDownloads(true)
        }
        lastKeyScreenChange = now
    }

    /// Releases held downloads once the keys paused for `flingInterval`: only the screen the fling
    /// stopped on (and what prefetching adds) is requested.
    func releaseDownloadsAfterFling(now: Double) {
        guard holdingDownloads, now - lastKeyScreenChange >= Self.flingInterval else { return }
        holdingDownloads = false
        source.holdDownloads(false)
    }

    /// Milliseconds until held downloads are released (for the poll timeout); nil when none are held.
    func flingEndsIn(now: Double) -> Int32? {
        guard holdingDownloads else { return nil }
        return Int32(max(0, (lastKeyScreenChange + Self.flingInterval - now) * 1000).rounded(.up))
    }

    /// How long the screen must stay complete, with no key moving it, before the next screen is
    /// prefetched: a person looking at a screen pauses far longer; one flinging through screens
    /// stops on each only until it is complete and a moment more, and the next fling would leave
    /// a prefetch of the next screen behind, fetched for nothing.
    static let prefetchPause = 1.0

    /// Holds prefetches when the screen changes, while it loads and while a fling holds downloads,
    /// and releases them once the screen has been complete for `prefetchPause`.
    func pacePrefetches(now: Double, screenChanged: Bool) {
        if screenChanged || status.pendingCells > 0 || holdingDownloads {
            quietSince = nil
            if !holdingPrefetches {
                holdingPrefetches = true
                source.holdPrefetches(true)
            }
            return
        }
        let since = quietSince ?? now
        quietSince = since
        if holdingPrefetches, now - since >= Self.prefetchPause {
            holdingPrefetches = false
            source.holdPrefetches(false)
        }
    }

    /// Milliseconds until held prefetches are released (for the poll timeout); nil when none wait.
    func prefetchesReleaseIn(now: Double) -> Int32? {
        guard holdingPrefetches, let since = quietSince else { return nil }
        return Int32(max(0, (since + Self.prefetchPause - now) * 1000).rounded(.up))
    }

    /// Whether held prefetches are still to start (the settled signal waits for them).
    var prefetchesWaiting: Bool { holdingPrefetches && !model.prefetchWindow().isEmpty }

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
