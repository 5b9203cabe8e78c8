import WebImage
import ImageCodecs
import TerminalGraphics

/// Builds a `Frame` from the model, the painted images and the status counters. No I/O: the same
/// frame can be shown by `CursesScreen` or checked in an `InMemoryScreen`.
public struct FrameComposer: Sendable {
    /// Colours and attributes.
    public var theme: GalleryTheme
    /// Keep the text on image rows quiet while loading: the progress bar moves in quarters and has no
    /// percentage under it (the caption shows that). For renderers whose images are sent again
    /// whenever text on their rows changes (sixel): a neighbour's progress otherwise re-sent every
    /// image of the row at each percent.
    public var quietImageRows = false
    /// Mark a settled failure's details with "✗ " (plain text has no red: the contact sheet).
    public var marksFailures = false

    /// Creates a composer.
    public init(theme: GalleryTheme = .colour) {
        self.theme = theme
    }

    /// Composes one frame. `picture(index)` returns the painted image of an item for the size of its
    /// image rectangle, when one is ready.
    public func compose(_ model: GalleryModel, status: StatusInfo, picture: (Int) -> RenderedImage?) -> Frame {
        var grid = CellGrid(size: model.terminal)
        var placements: [BitmapPlacement] = []
        for place in model.placements {
            let item = model.items[place.index]
            if let painted = picture(place.index), !place.image.isEmpty {
                placements.append(Self.placement(of: painted, in: place.image))
            } else {
                drawLoading(item.state, in: place.image, grid: &grid)
            }
            let selected = place.index == model.selection
            if model.fullView != nil {
                drawFullViewText(item, index: place.index, count: model.count, in: place.text, grid: &grid)
            } else if model.mode == .grid {
                drawGridCaption(item, selected: selected, in: place.text, grid: &grid)
            } else {
                drawListText(item, selected: selected, in: place.text, grid: &grid)
            }
        }
        // An empty list says so in the grid; a filter that matches nothing says it once, in the
        // status bar ("0 of 60 matching /x").
        if model.count == 0, model.filter == nil, model.terminal.rows > 1 {
            grid.put("No images in the list.", column: 1, row: 0, style: theme.details)
        }
        drawStatus(model, status: status, grid: &grid)
        if model.showingHelp {
            placements = overlayHelp(on: placements, avoiding: model.placements.map(\.image), grid: &grid)
        }
        return Frame(grid: grid, placements: placements)
    }

    /// Where a painted image goes in its image rectangle: centred, clipped to it.
    public static func placement(of painted: RenderedImage, in rect: CellRect) -> BitmapPlacement {
        let place = rect.centring(painted.cells)
        var clipped = painted
        clipped.cells = CellSize(columns: place.columns, rows: place.rows)
        if clipped.rows.count > place.rows { clipped.rows = Array(clipped.rows.prefix(place.rows)) }
        return BitmapPlacement(column: place.column, row: place.row, image: clipped)
    }

    /// Placeholder, progress bar or error box for an image rectangle (text only).
    func drawLoading(_ state: CellState, in rect: CellRect, grid: inout CellGrid) {
        guard !rect.isEmpty else { return }
        switch state {
        case .failed(let message):
            grid.fill(rect, style: theme.error)
            let lines = wrap("✗ " + message, width: max(1, rect.columns - 2), maxLines: max(1, rect.rows))
            let top = rect.row + max(0, (rect.rows - lines.count) / 2)
            for (offset, line) in lines.enumerated() {
                grid.put(TerminalText.center(line, width: rect.columns), column: rect.column, row: top + offset, style: theme.error, limit: rect.columns)
            }
        case .progress, .partial:
            grid.fill(rect, with: theme.placeholderFill, style: theme.placeholder)
            let width = max(1, rect.columns - 2)
            let middle = rect.row + rect.rows / 2
            let fraction = quietImageRows ? ((state.fraction ?? 0) * 4).rounded(.down) / 4 : state.fraction ?? 0
            let filled = Int((Double(width) * fraction).rounded(.down))
            for x in 0..<width {
                grid.set(column: rect.column + 1 + x, row: middle, ScreenCell("▄", style: x < filled ? theme.barFilled : theme.barEmpty))
            }
            if rect.rows >= 3, !quietImageRows {
                let label: String
                if case .progress(let received, let expected) = state {
                    label = expected.map { _ in "\(Int(fraction * 100))%" } ?? SizeText.size(received)
                } else {
                    label = "decoding"
                }
                grid.put(TerminalText.center(label, width: rect.columns), column: rect.column, row: middle + 1, style: theme.placeholder, limit: rect.columns)
            }
        case .placeholder, .final:
            grid.fill(rect, with: theme.placeholderFill, style: theme.placeholder)
            if rect.rows >= 1 {
                grid.put(TerminalText.center("·", width: rect.columns), column: rect.column, row: rect.row + rect.rows / 2, style: theme.placeholder, limit: rect.columns)
            }
        }
    }

    /// Greedy word wrap into at most `maxLines` lines of `width` columns (last line cut with "…").
    func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var words: [String] = []
        for word in text.split(separator: " ") {
            // Hard-break words longer than a line.
            var rest = String(word)
            while TerminalText.width(of: rest) > width {
                var head = "", used = 0
                for ch in rest {
                    let w = TerminalText.width(of: String(ch))
                    if used + w > width { break }
                    head.append(ch)
                    used += w
                }
                if head.isEmpty { break }
                words.append(head)
                rest.removeFirst(head.count)
            }
            if !rest.isEmpty { words.append(rest) }
        }
        for word in words {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if TerminalText.width(of: candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = TerminalText.fit(lines[maxLines - 1] + " …", width: width)
        }
        return lines.map { TerminalText.fit($0, width: width) }
    }
}
