import ImageCodecs
import TerminalGraphics

/// The whole gallery state as a value: items and their cell states, layout, scroll, selection, view,
/// overlays, and the slot bindings. No curses, no I/O: the frame loop feeds it actions and load
/// updates, and applies the `BindingDiff` it returns to the loaders.
///
/// ```swift
/// var model = GalleryModel(items: list.entries.map(GalleryItem.init), terminal: CellSize(columns: 120, rows: 40),
///                          cellPixels: PixelSize(width: 8, height: 16))
/// let diff = model.reconcile()          // bind the first screen, prefetch the next one
/// _ = model.perform(.pageDown)
/// let next = model.reconcile()          // cancels for the old screen, binds for the new one
/// ```
public struct GalleryModel: Sendable {
    /// Scroll direction, for the prefetch window.
    public enum Direction: Sendable, Hashable { case forward, backward }

    /// Every item, in list order (made on demand, kept only once changed).
    public internal(set) var items: GalleryItems
    /// Grid or list.
    public private(set) var mode: ViewMode
    /// Terminal size in cells.
    public private(set) var terminal: CellSize
    /// Pixel size of one cell.
    public private(set) var cellPixels: PixelSize
    /// Image pixels one cell shows when the renderer draws text (`CellPainter.samplesPerCell`);
    /// nil for bitmaps. Targets then ask for that many pixels per cell, not the cell's pixels.
    public var samplesPerCell: PixelSize?
    /// `--columns`, when given.
    public let columnsOverride: Int?
    /// The most images the terminal keeps at once (tmux: `TmuxImages`); nil: no limit.
    public let imageLimit: Int?
    /// The current layout.
    public private(set) var layout: GalleryLayout
    /// Selected item index (0 when empty).
    public internal(set) var selection = 0
    /// First visible item row.
    public internal(set) var scrollRow = 0
    /// Whether the help overlay is shown.
    public internal(set) var showingHelp = false
    /// The item shown in the full view, if open.
    public internal(set) var fullView: Int?
    /// Direction of the last movement.
    public internal(set) var direction: Direction = .forward
    /// How many screens ahead to prefetch (0 turns prefetch off).
    public var prefetchScreens: Int
    /// Whether grid and list cells play their animations (`--animate`); else they show first
    /// frames, and only the full view plays. Set before the first `reconcile()`.
    public var animatesCells = false
    /// Whether playing is paused (`a`): every animation holds its frame.
    public internal(set) var animationsPaused = false
    /// Slot bindings and prefetch window.
    public internal(set) var binder = SlotBinder()
    /// The filter (`/`): its text while typed or kept; nil when off.
    public internal(set) var filter: String?
    /// Whether the filter prompt is taking the keys.
    public internal(set) var editingFilter = false
    /// Counts filter changes: a scan's results count only for the generation it was started for.
    public internal(set) var filterGeneration = 0
    /// While a long list is being scanned for the filter: how far the scan has come (else nil).
    public internal(set) var filterScanned: Int?
    /// A scan the frame loop is to start off the UI thread (`takeFilterScan()`).
    var pendingFilterScan: FilterScan?
    /// Bindings and prefetches dropped when the filter changed what the positions mean: the next
    /// `reconcile()` cancels them.
    var released: (bindings: [SlotBinding], prefetches: [PrefetchRequest]) = ([], [])

    /// Creates a model showing the top of the list.
    public init(items: [GalleryItem], terminal: CellSize, cellPixels: PixelSize, mode: ViewMode = .grid,
                columnsOverride: Int? = nil, imageLimit: Int? = nil, prefetchScreens: Int = 1) {
        self.init(items: GalleryItems(items), terminal: terminal, cellPixels: cellPixels, mode: mode,
                  columnsOverride: columnsOverride, imageLimit: imageLimit, prefetchScreens: prefetchScreens)
    }

    /// Creates a model over `items` (e.g. `GalleryItems(index:)` for a list of any size). `imageLimit`:
    /// the most images the terminal keeps at once (tmux: `TmuxImages`), which caps the grid.
    public init(items: GalleryItems, terminal: CellSize, cellPixels: PixelSize, mode: ViewMode = .grid,
                columnsOverride: Int? = nil, imageLimit: Int? = nil, prefetchScreens: Int = 1) {
        self.items = items
        self.mode = mode
        self.terminal = terminal
        self.cellPixels = cellPixels
        self.columnsOverride = columnsOverride
        self.imageLimit = imageLimit
        self.prefetchScreens = prefetchScreens
        self.layout = GalleryLayout(mode: mode, terminal: terminal, cellPixels: cellPixels, columnsOverride: columnsOverride,
                                    imageLimit: imageLimit)
    }

    /// Number of items.
    public var count: Int { items.count }

    /// The largest useful `scrollRow`.
    public var maxScrollRow: Int { max(0, layout.totalRows(count: count) - layout.visibleRows) }

    /// Indices of the items on screen, in order (just the full-view item when it is open).
    public var visibleIndices: Range<Int> {
        if let fullView { return fullView..<(fullView + 1) }
        let first = min(count, scrollRow * layout.columns)
        return first..<min(count, first + layout.pageCapacity)
    }

    /// The target pixel size for an image drawn in `rect`: the pixels its cells can show.
    public func target(for rect: CellRect) -> PixelSize {
        rect.pixelSize(cellPixels: DecodePixels.perCell(cellPixels: cellPixels, samples: samplesPerCell))
    }

    /// Where each visible item is drawn.
    public var placements: [ItemPlacement] {
        if let fullView, fullView < count {
            let image = layout.fullViewImage
            let text = CellRect(column: 0, row: image.maxRow, columns: terminal.columns, rows: layout.fullViewMetadataRows)
            return [ItemPlacement(index: fullView, cell: image, image: image, text: text)]
        }
        return visibleIndices.compactMap { layout.placement(of: $0, scrollRow: scrollRow) }
    }

    /// Changes the terminal size (SIGWINCH) or cell pixel size, reflowing while keeping the selection
    /// visible at about the same place on screen.
    public mutating func resize(terminal: CellSize, cellPixels: PixelSize? = nil) {
        let offset = layout.row(of: selection) - scrollRow
        self.terminal = terminal
        if let cellPixels { self.cellPixels = cellPixels }
        relayout(keepingSelectionAt: offset)
    }

    /// Sets the view mode (grid or list).
    public mutating func setMode(_ newMode: ViewMode) {
        guard newMode != mode else { return }
        let offset = layout.row(of: selection) - scrollRow
        mode = newMode
        relayout(keepingSelectionAt: offset)
    }

    private mutating func relayout(keepingSelectionAt offset: Int) {
        layout = GalleryLayout(mode: mode, terminal: terminal, cellPixels: cellPixels, columnsOverride: columnsOverride,
                               imageLimit: imageLimit)
        let row = layout.row(of: selection)
        scrollRow = row - min(max(0, offset), max(0, layout.visibleRows - 1))
        scrollRow = min(max(0, scrollRow), maxScrollRow)
        revealSelection()
    }

    /// Scrolls just enough for the selection to be on screen.
    mutating func revealSelection() {
        guard count > 0, layout.visibleRows > 0 else { scrollRow = 0; return }
        let row = layout.row(of: selection)
        if row < scrollRow { scrollRow = row }
        if row >= scrollRow + layout.visibleRows { scrollRow = row - layout.visibleRows + 1 }
        scrollRow = min(max(0, scrollRow), maxScrollRow)
    }

    /// Moves `scrollRow`, recording the direction.
    mutating func setScrollRow(_ row: Int) {
        let clamped = min(max(0, row), maxScrollRow)
        if clamped > scrollRow { direction = .forward }
        if clamped < scrollRow { direction = .backward }
        scrollRow = clamped
    }

    /// Computes the desired visible slots and prefetch window and returns what to cancel and load.
    /// Items whose load was cancelled before it settled go back to the placeholder state.
    public mutating func reconcile() -> BindingDiff {
        let visible = placements
        let selected = fullView ?? selection
        let requests = visible
            .filter { !$0.image.isEmpty }
            .sorted { abs($0.index - selected) < abs($1.index - selected) || (abs($0.index - selected) == abs($1.index - selected) && $0.index < $1.index) }
            .map { PrefetchRequest(index: $0.index, target: target(for: $0.image), animated: fullView != nil || animatesCells) }
        var diff = binder.reconcile(visible: requests, prefetch: prefetchWindow())
        for cancelled in diff.cancels where cancelled.index < count && !items[cancelled.index].state.isSettled {
            items[cancelled.index].state = .placeholder
        }
        if !released.bindings.isEmpty || !released.prefetches.isEmpty {
            diff.cancels = released.bindings + diff.cancels
            diff.prefetchCancels = released.prefetches + diff.prefetchCancels
            released = ([], [])
        }
        return diff
    }

    /// The items to prefetch: the next screen(s) in the direction of movement.
    public func prefetchWindow() -> [PrefetchRequest] {
        guard prefetchScreens > 0, count > 0 else { return [] }
        if let fullView {
            let next = direction == .forward ? fullView + 1 : fullView - 1
            guard next >= 0, next < count else { return [] }
            return [PrefetchRequest(index: next, target: target(for: layout.fullViewImage), animated: true)]
        }
        guard layout.pageCapacity > 0, let first = visibleIndices.first, let size = placements.first.map({ target(for: $0.image) }) else { return [] }
        let span = layout.pageCapacity * prefetchScreens
        let range: [Int]
        switch direction {
        case .forward: range = Array(visibleIndices.upperBound..<min(count, visibleIndices.upperBound + span))
        case .backward: range = Array((max(0, first - span)..<first).reversed())
        }
        return range.map { PrefetchRequest(index: $0, target: size, animated: animatesCells) }
    }

    /// The current binding for `slot`.
    public func binding(of slot: SlotID) -> SlotBinding? { binder.binding(of: slot) }

    /// Every current binding, by slot number.
    public var bindings: [SlotBinding] { binder.bindings.values.sorted { $0.slot < $1.slot } }

    /// The binding showing item `index`, if it is on screen.
    public func binding(showing index: Int) -> SlotBinding? { binder.bindings.values.first { $0.index == index } }

    /// Sets the cell state of item `index` (ignored when out of range).
    public mutating func setState(_ state: CellState, of index: Int) {
        guard items.indices.contains(index) else { return }
        items[index].state = state
    }

    /// Updates what is known about item `index`; nil arguments leave the old value.
    public mutating func setInfo(of index: Int, pixelSize: PixelSize? = nil, byteCount: Int64? = nil, format: String? = nil, origin: String? = nil) {
        guard items.indices.contains(index) else { return }
        if let pixelSize { items[index].pixelSize = pixelSize }
        if let byteCount { items[index].byteCount = byteCount }
        if let format { items[index].format = TerminalText.sanitize(format) }
        if let origin { items[index].origin = TerminalText.sanitize(origin) }
    }
}
