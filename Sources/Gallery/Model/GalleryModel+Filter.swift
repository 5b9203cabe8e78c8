/// `/` filters the items by a substring of their line (URL or path, and title), case ignored: the
/// status bar shows "k of n", Enter keeps the filter, Esc clears it. Positions then count shown
/// items only; the slot bindings are all released (a position now means another item) and the
/// next `reconcile()` binds the filtered screen.
extension GalleryModel {
    /// Opens the filter prompt (keeping the current text).
    mutating func startFilter() {
        editingFilter = true
        if filter == nil { filter = "" }
    }

    /// Lists up to this many lines are scanned at once on the UI thread (well under a millisecond);
    /// longer ones by a `FilterScan` off it.
    static let inlineScanLines = 65_536

    /// The prompt's text changed: shows the matching items from the first. A long list starts
    /// empty and fills as its scan's results arrive (`receiveFilterResults`).
    mutating func setFilter(_ text: String) {
        filter = text
        filterGeneration += 1
        pendingFilterScan = nil
        filterScanned = nil
        guard !text.isEmpty else { return applyFilter(nil) }
        let total = items.totalCount
        guard total > Self.inlineScanLines else { return applyFilter(items.positions(containing: text)) }
        applyFilter([])
        filterScanned = 0
        pendingFilterScan = FilterScan(generation: filterGeneration, needle: text, range: 0..<total, items: items)
    }

    /// The scan the frame loop should start now, if any (taken once).
    public mutating func takeFilterScan() -> FilterScan? {
        defer { pendingFilterScan = nil }
        return pendingFilterScan
    }

    /// A chunk of the current scan's matches joins the shown items (a stale one is dropped). When
    /// lines arrived on a pipe meanwhile, a scan of them follows.
    public mutating func receiveFilterResults(_ results: FilterResults) {
        guard results.generation == filterGeneration, filterScanned != nil, let filter, !filter.isEmpty else { return }
        items.showMore(results.positions)
        filterScanned = results.scannedThrough
        guard results.done else { return }
        let total = items.totalCount
        if total > results.scannedThrough {
            pendingFilterScan = FilterScan(generation: filterGeneration, needle: filter, range: results.scannedThrough..<total, items: items)
        } else {
            filterScanned = nil
        }
    }

    /// Enter: keeps the filter and gives the keys back (an empty one is cleared).
    mutating func acceptFilter() {
        editingFilter = false
        if filter?.isEmpty ?? true { clearFilter() }
    }

    /// Esc: every item again.
    mutating func clearFilter() {
        editingFilter = false
        let wasFiltered = items.isFiltered
        filter = nil
        filterGeneration += 1
        pendingFilterScan = nil
        filterScanned = nil
        if wasFiltered { applyFilter(nil) }
    }

    private mutating func applyFilter(_ positions: [Int]?) {
        for binding in binder.bindings.values where binding.index < count && !items[binding.index].state.isSettled {
            items[binding.index].state = .placeholder
        }
        released.bindings += binder.bindings.values.sorted { $0.slot < $1.slot }
        released.prefetches += binder.prefetching.sorted { $0.index < $1.index }
        binder = SlotBinder()
        items.show(only: positions)
        fullView = nil
        selection = 0
        scrollRow = 0
        direction = .forward
    }

    /// The filter's actions (nil for others). While the prompt is open only these and quit act.
    mutating func performFilter(_ action: GalleryAction) -> ActionOutcome? {
        switch action {
        case .startFilter:
            guard fullView == nil else { return ActionOutcome() }
            showingHelp = false
            startFilter()
        case .filterType(let character): setFilter((filter ?? "") + String(character))
        case .filterErase: setFilter(String((filter ?? "").dropLast()))
        case .filterAccept: acceptFilter()
        case .filterClear: clearFilter()
        case .back where filter != nil && fullView == nil && !showingHelp:
            clearFilter()  // Esc or q leaves the filter before they leave the gallery
        case .quit: return nil
        default: return editingFilter ? ActionOutcome() : nil
        }
        return ActionOutcome(changed: true)
    }

    /// Lines that arrived on the pipe the list is read from: they join the end (and, when they
    /// match, the filter). The screen binds them if they are on it.
    public mutating func appendItems(_ index: URLListIndex) {
        // While a scan runs, the new lines wait for the scan that follows it (results stay in order).
        items.append(index, filter: filterScanned != nil ? nil : filter.flatMap { $0.isEmpty ? nil : $0 })
    }
}
