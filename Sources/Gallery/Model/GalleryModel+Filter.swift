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

    /// The prompt's text changed: shows the matching items from the first.
    mutating func setFilter(_ text: String) {
        filter = text
        applyFilter(text.isEmpty ? nil : items.positions(containing: text))
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
        items.append(index, filter: filter.flatMap { $0.isEmpty ? nil : $0 })
    }
}
