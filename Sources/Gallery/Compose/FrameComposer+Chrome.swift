import WebImage
import TerminalGraphics
extension FrameComposer {
    /// Title and details under a grid thumbnail.
    func drawGridCaption(_ item: GalleryItem, selected: Bool, in rect: CellRect, grid: inout CellGrid) {
        guard !rect.isEmpty else { return }
        let titleStyle = selected ? theme.selectedTitle : theme.title
        let detailStyle = selected ? theme.selectedDetails : detailsStyle(for: item)
        if rect.rows == 1 {
            let text = item.title + (item.state.isSettled && item.state != .final ? " · " + item.details : "")
            grid.put(TerminalText.pad(text, width: rect.columns), column: rect.column, row: rect.row, style: titleStyle, limit: rect.columns)
            return
        }
        grid.put(TerminalText.pad(item.title, width: rect.columns), column: rect.column, row: rect.row, style: titleStyle, limit: rect.columns)
        let details = (marksFailures && item.state.isSettled && item.state != .final ? "✗ " : "") + item.details
        grid.put(TerminalText.pad(details, width: rect.columns), column: rect.column, row: rect.row + 1, style: detailStyle, limit: rect.columns)
    }

    /// Title, location and details beside a list thumbnail.
    func drawListText(_ item: GalleryItem, selected: Bool, in rect: CellRect, grid: inout CellGrid) {
        guard !rect.isEmpty else { return }
        let lines = [item.title, item.entry.location.description, item.details]
        let styles = selected ? [theme.selectedTitle, theme.selectedDetails, theme.selectedDetails]
            : [theme.title, theme.details, detailsStyle(for: item)]
        for row in 0..<min(rect.rows, lines.count) {
            grid.put(TerminalText.pad(lines[row], width: rect.columns), column: rect.column, row: rect.row + row, style: styles[row], limit: rect.columns)
        }
    }

    /// Metadata under the full-view image.
    func drawFullViewText(_ item: GalleryItem, index: Int, count: Int, in rect: CellRect, grid: inout CellGrid) {
        guard !rect.isEmpty else { return }
        var facts = [item.format, item.pixelSize?.description, item.byteCount.map(SizeText.size), item.origin].compactMap { $0 }
        if case .failed(let message) = item.state { facts.append(message) }
        facts.append("\(index + 1)/\(count)")
        let first = item.entry.title.map { "\($0) — \(item.entry.location.description)" } ?? item.entry.location.description
        grid.put(" " + first, column: rect.column, row: rect.row, style: theme.title, limit: rect.columns)
        if rect.rows >= 2 {
            grid.put(" " + facts.joined(separator: " · ") + "   n/p next/previous · q back", column: rect.column, row: rect.row + 1, style: theme.details, limit: rect.columns)
        }
    }

    func detailsStyle(for item: GalleryItem) -> TextStyle {
        if case .failed = item.state {
            var style = theme.details
            style.foreground = theme.error.foreground
            if theme.error.background == .terminalDefault { style.bold = true }
            return style
        }
        return theme.details
    }

    /// The last row: position, view, activity and counters, key hints.
    func drawStatus(_ model: GalleryModel, status: StatusInfo, grid: inout CellGrid) {
        let row = model.terminal.rows - 1
        guard row >= 0, model.terminal.columns > 0 else { return }
        grid.fill(CellRect(column: 0, row: row, columns: model.terminal.columns, rows: 1), style: theme.status)
        let position = model.count == 0 ? "0/0" : "\(min(model.count, (model.fullView ?? model.selection) + 1))/\(model.count)"
        var left = " \(position) · \(model.fullView != nil ? "full view" : model.mode.rawValue)"
        if let filter = model.filter {
            // "/red▏ 12 of 60": what is typed (the prompt while it takes the keys) and how many match.
            let text = TerminalText.sanitize(filter)
            let found = "\(model.count)\(model.filterScanned != nil ? "…" : "")"  // "…": a long list's scan is still running
            left = model.editingFilter
                ? " /\(text)▏ \(found) of \(model.items.totalCount) · Enter keep, Esc clear"
                : " \(position) · \(found) of \(model.items.totalCount) matching /\(text) · \(model.fullView != nil ? "full view" : model.mode.rawValue)"
        }
        if status.activeDownloads > 0 || status.queuedDownloads > 0 {
            left += " · \(status.spinner) \(status.activeDownloads) active"
            if status.queuedDownloads > 0 { left += ", \(status.queuedDownloads) queued" }
        } else if status.pendingCells > 0 {
            left += " · \(status.spinner) \(status.pendingCells) loading"
        }
        if status.readingInput { left += " · reading the list…" }
        if status.cacheHits > 0 { left += " · \(status.cacheHits) cached" }
        if status.bytesReceived > 0 { left += " · \(SizeText.size(status.bytesReceived))" }
        if status.failures > 0 { left += " · \(status.failures) failed" }
        if let message = status.message { left += " · " + message }
        if let note = status.diskNote { left += " · " + note }
        let right = model.terminal.columns >= 60 ? "? help  q quit " : ""
        let room = model.terminal.columns - TerminalText.width(of: right) - 1
        grid.put(left, column: 0, row: row, style: theme.status, limit: max(1, room))
        if !right.isEmpty, room > TerminalText.width(of: left) {
            grid.put(right, column: model.terminal.columns - TerminalText.width(of: right), row: row, style: theme.status)
        }
    }
}
