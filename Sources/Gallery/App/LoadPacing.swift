/// When loads wait for the person, decided apart from the loop that applies it: a fling (screen
/// changes by keys closer together than `flingInterval`) holds new downloads until the keys pause;
/// prefetches wait until the screen has been complete, with no key moving it, for `prefetchPause`.
/// Pure: each call says what to hold or release, and `GalleryApp+Pacing` tells the source.
struct LoadPacing {
    /// Screen changes by keys closer together than this are a fling: downloads are held until the
    /// keys pause this long (key repeat is 25–40 ms apart; a person paging and looking, far more).
    static let flingInterval = 0.15
    /// How long the screen must stay complete, with no key moving it, before the next screen is
    /// prefetched: a person looking at a screen pauses far longer; one flinging through screens
    /// stops on each only until it is complete and a moment more, and the next fling would leave
    /// a prefetch of the next screen behind, fetched for nothing.
    static let prefetchPause = 1.0

    /// Whether new downloads are held (a fling).
    private(set) var holdingDownloads = false
    /// Whether prefetches are held.
    private(set) var holdingPrefetches = false
    /// When a key last changed which items are bound.
    private var lastKeyScreenChange = -Double.infinity
    /// Since when the screen is complete and no key moved it (nil: it is not).
    private var quietSince: Double?

    /// A key changed which items are bound at `now`: true when downloads are to be held from now
    /// (a second change within `flingInterval`; the first key's screen loads at once).
    mutating func screenChangedByKey(at now: Double) -> Bool {
        defer { lastKeyScreenChange = now }
        guard !holdingDownloads, now - lastKeyScreenChange < Self.flingInterval else { return false }
        holdingDownloads = true
        return true
    }

    /// True when held downloads are to be released now: the keys paused for `flingInterval`, so only
    /// the screen the fling stopped on (and what prefetching adds) is requested.
    mutating func releasesDownloads(now: Double) -> Bool {
        guard holdingDownloads, now - lastKeyScreenChange >= Self.flingInterval else { return false }
        holdingDownloads = false
        return true
    }

    /// Milliseconds until held downloads are released (for the poll timeout); nil when none are held.
    func flingEndsIn(now: Double) -> Int32? {
        guard holdingDownloads else { return nil }
        return Int32(max(0, (lastKeyScreenChange + Self.flingInterval - now) * 1000).rounded(.up))
    }

    /// Holds prefetches when the screen changed, while it loads and while a fling holds downloads;
    /// releases them once the screen has been complete for `prefetchPause`. Returns true to hold,
    /// false to release, nil when nothing changes.
    mutating func pacePrefetches(now: Double, screenChanged: Bool, screenLoading: Bool) -> Bool? {
        if screenChanged || screenLoading || holdingDownloads {
            quietSince = nil
            guard !holdingPrefetches else { return nil }
            holdingPrefetches = true
            return true
        }
        let since = quietSince ?? now
        quietSince = since
        guard holdingPrefetches, now - since >= Self.prefetchPause else { return nil }
        holdingPrefetches = false
        return false
    }

    /// Milliseconds until held prefetches are released (for the poll timeout); nil when none wait.
    func prefetchesReleaseIn(now: Double) -> Int32? {
        guard holdingPrefetches, let since = quietSince else { return nil }
        return Int32(max(0, (since + Self.prefetchPause - now) * 1000).rounded(.up))
    }
}
