/// The status bar's counters and the bookkeeping behind two of them: the items shown from a cache
/// (each counted once, however often it is rebound) and whether the pending count must be taken
/// again (it reads every visible item: once per loop iteration, not per load update).
struct StatusBarState {
    /// What the bar shows.
    var info = StatusInfo()
    /// Items shown from the memory or disk cache.
    private var cachedItems = Set<Int>()
    /// Load updates arrived since the pending count was last taken.
    var pendingCountStale = false

    /// Item `index` is (or no longer is) shown from a cache: the bar's "N cached" follows.
    mutating func countCached(_ index: Int, cached: Bool) {
        let changed = cached ? cachedItems.insert(index).inserted : cachedItems.remove(index) != nil
        if changed { info.cacheHits = cachedItems.count }
    }
}
