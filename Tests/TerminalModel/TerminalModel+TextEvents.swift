import CVTerm

/// What text does to the image layer: libvterm's log of cells written, erased and scrolled, applied
/// with the semantics of the `kind`.
extension TerminalModel {
    func applyTextEvents() {
        let count = cvt_event_count(terminal)
        guard count > 0 else { return }
        var events = [cvt_event](repeating: cvt_event(), count: count)
        _ = events.withUnsafeMutableBufferPointer { cvt_take_events(terminal, $0.baseAddress, count) }
        for event in events { apply(event) }
    }

    private func apply(_ event: cvt_event) {
        let (columns, rows) = size
        let rect = (rows: Int(event.start_row)..<Int(event.end_row), columns: Int(event.start_col)..<Int(event.end_col))
        switch Int(event.kind) {
        case Int(CVT_PUT), Int(CVT_ERASE):
            if let band = staleBand, rect.rows.lowerBound >= band.rows.upperBound {
                // xterm: text below the band a reverse scroll exposed repaints that band from its
                // record of the sixels, which the reverse scroll did not move: the old images come back.
                for (index, fragment) in band.fragments { layer[index] = fragment }
                staleBand = nil
            }
            if kind.keepsImagesLikeTmux {
                // tmux frees the images under text, and every image on a row an erase touches.
                tmuxFree(rows: rect.rows, columns: Int(event.kind) == Int(CVT_ERASE) ? nil : rect.columns)
            }
            if kind.textErasesImages {
                clearLayer(rows: rect.rows, columns: rect.columns)
            } else if kind.showsKitty, Int(event.kind) == Int(CVT_ERASE), rect.rows == 0..<rows, rect.columns == 0..<columns {
                // kitty: clearing the whole screen (`CSI 2 J`) deletes every placement on it.
                clearLayer(rows: rect.rows, columns: rect.columns)
            }
        case Int(CVT_SCROLL):
            let down = Int(event.downward), right = Int(event.rightward)
            guard kind.showsSixel || kind.showsKitty else { return }
            if kind.keepsImagesLikeTmux { tmuxFree(rows: rect.rows, columns: nil) }
            if down < 0 && !kind.reverseScrollMovesImages {
                // xterm moves the pixels on screen but not its record of the sixels: remember what the
                // record still has in the band the scroll exposed.
                let band = rect.rows.lowerBound..<min(rect.rows.upperBound, rect.rows.lowerBound - down)
                var fragments: [Int: ImageFragment] = [:]
                for row in band { for column in rect.columns { if let f = layer[row * columns + column] { fragments[row * columns + column] = f } } }
                staleBand = fragments.isEmpty ? nil : (band, fragments)
            }
            scrollLayer(rows: rect.rows, columns: rect.columns, down: down, right: right)
        default:
            break
        }
    }

    func clearLayer(rows: Range<Int>, columns: Range<Int>) {
        let width = size.columns
        for row in rows { for column in columns { layer[row * width + column] = nil } }
    }

    /// Moves the layer's fragments inside the rectangle as libvterm moved its text: by `down` rows up
    /// (negative: down) and `right` columns left; what leaves the rectangle is gone, what is exposed
    /// is empty.
    func scrollLayer(rows: Range<Int>, columns: Range<Int>, down: Int, right: Int) {
        let width = size.columns
        var moved = layer
        for row in rows {
            for column in columns {
                let sourceRow = row + down, sourceColumn = column + right
                moved[row * width + column] = rows.contains(sourceRow) && columns.contains(sourceColumn)
                    ? layer[sourceRow * width + sourceColumn] : nil
            }
        }
        layer = moved
    }

    /// Draws an image of `cells` at the cursor (clipped to the screen), over what is there.
    func place(_ key: ImageKey, placement: UInt32, columns: Int, rows: Int) {
        let (width, height) = size
        let origin = cursor
        for dy in 0..<max(0, rows) where origin.row + dy < height {
            for dx in 0..<max(0, columns) where origin.column + dx < width {
                layer[(origin.row + dy) * width + origin.column + dx] = ImageFragment(image: key, placement: placement, dx: dx, dy: dy)
            }
        }
    }
}
