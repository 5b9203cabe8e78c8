import WebImage

extension GalleryModel {
    /// Applies one user action. The caller then calls `reconcile()` and draws a frame when
    /// `outcome.changed`.
    public mutating func perform(_ action: GalleryAction) -> ActionOutcome {
        var outcome = ActionOutcome(changed: true)
        if let outcome = performFilter(action) { return outcome }
        if action == .suspend {  // in any view; the model itself does not change
            return ActionOutcome(changed: false, suspend: true)
        }
        if action == .copyURL {  // the selected image, or the one in the full view
            guard count > 0 else { return ActionOutcome() }
            var outcome = ActionOutcome(changed: true)
            // Never a `user:password@` into the clipboard (OSC 52 passes through tmux and the terminal).
            outcome.copy = items[fullView ?? selection].entry.location.url.removingCredentials.absoluteString
            return outcome
        }
        if action == .toggleAnimation {  // in any view, the help too
            animationsPaused.toggle()
            return ActionOutcome(changed: true)
        }
        if action == .saveOriginal {
            guard count > 0 else { return ActionOutcome() }
            var outcome = ActionOutcome(changed: true)
            outcome.save = items[fullView ?? selection].entry.location
            return outcome
        }
        if showingHelp {
            // Any key closes the help; Ctrl-C still quits.
            showingHelp = false
            if action == .quit { outcome.quit = true }
            return outcome
        }
        if fullView != nil { return performInFullView(action, outcome: outcome) }
        guard count > 0 || [.back, .quit, .toggleHelp, .toggleView, .redraw].contains(action) else {
            outcome.changed = false
            return outcome
        }
        let before = (selection, scrollRow)
        let columns = layout.columns
        switch action {
        case .up: select(selection - columns >= 0 ? selection - columns : selection)
        case .down:
            if selection + columns < count { select(selection + columns) }
            else if layout.row(of: count - 1) > layout.row(of: selection) { select(count - 1) }
        case .left, .previous: select(selection - 1)
        case .right, .next: select(selection + 1)
        case .pageDown: page(by: 1)
        case .pageUp: page(by: -1)
        case .home: select(0)
        case .end: select(count - 1)
        case .open: fullView = selection
        case .back, .quit: outcome.quit = true
        case .toggleView: setMode(mode == .grid ? .list : .grid)
        case .toggleHelp: showingHelp = true
        case .refresh: outcome.refresh = binding(showing: selection).map { [$0] } ?? []
        case .refreshVisible: outcome.refresh = bindings
        case .scroll(let rows): scroll(by: rows)
        case .click(let column, let row):
            if let index = layout.index(atColumn: column, row: row, scrollRow: scrollRow, count: count) { select(index) }
        case .doubleClick(let column, let row):
            if let index = layout.index(atColumn: column, row: row, scrollRow: scrollRow, count: count) {
                select(index)
                fullView = index
            }
        case .redraw: outcome.redraw = true
        case .suspend, .copyURL, .saveOriginal, .toggleAnimation, .startFilter, .filterType, .filterErase, .filterAccept, .filterClear: break  // handled above
        }
        if case .refresh = action { outcome.changed = !outcome.refresh.isEmpty }
        if case .refreshVisible = action { outcome.changed = !outcome.refresh.isEmpty }
        if [.up, .down, .left, .right, .home, .end, .next, .previous].contains(action) {
            outcome.changed = (selection, scrollRow) != before
        }
        return outcome
    }

    private mutating func performInFullView(_ action: GalleryAction, outcome base: ActionOutcome) -> ActionOutcome {
        var outcome = base
        guard let current = fullView else { return outcome }
        switch action {
        case .back: fullView = nil
        case .quit: outcome.quit = true
        case .next, .right, .down, .pageDown:
            guard current + 1 < count else { outcome.changed = false; return outcome }
            direction = .forward
            fullView = current + 1
            select(current + 1)
        case .previous, .left, .up, .pageUp:
            guard current > 0 else { outcome.changed = false; return outcome }
            direction = .backward
            fullView = current - 1
            select(current - 1)
        case .home: fullView = 0; select(0)
        case .end: fullView = max(0, count - 1); select(max(0, count - 1))
        case .toggleHelp: showingHelp = true
        case .refresh, .refreshVisible:
            outcome.refresh = binding(showing: current).map { [$0] } ?? []
        case .redraw: outcome.redraw = true
        case .suspend, .copyURL, .saveOriginal, .toggleAnimation, .startFilter, .filterType, .filterErase, .filterAccept, .filterClear: break  // handled in perform
        case .open, .toggleView, .scroll, .click, .doubleClick: outcome.changed = false
        }
        return outcome
    }

    /// Selects `index` (clamped) and scrolls it into view.
    mutating func select(_ index: Int) {
        guard count > 0 else { return }
        selection = min(max(0, index), count - 1)
        let row = layout.row(of: selection)
        if row < scrollRow { setScrollRow(row) }
        if layout.visibleRows > 0, row >= scrollRow + layout.visibleRows { setScrollRow(row - layout.visibleRows + 1) }
    }

    /// One screen down (+1) or up (-1): the view moves a full screen and the selection with it.
    mutating func page(by screens: Int) {
        let rows = max(1, layout.visibleRows) * screens
        let targetRow = layout.row(of: selection) + rows
        let lastRow = layout.row(of: count - 1)
        setScrollRow(scrollRow + rows)
        let column = selection % layout.columns
        let row = min(max(0, targetRow), lastRow)
        select(min(count - 1, row * layout.columns + column))
    }

    /// Scrolls the view; the selection follows only when it would leave the screen.
    mutating func scroll(by rows: Int) {
        setScrollRow(scrollRow + rows)
        let row = layout.row(of: selection)
        let column = selection % layout.columns
        let visible = max(1, layout.visibleRows)
        if row < scrollRow { selection = min(count - 1, scrollRow * layout.columns + column) }
        if row >= scrollRow + visible { selection = min(count - 1, (scrollRow + visible - 1) * layout.columns + column) }
    }
}
