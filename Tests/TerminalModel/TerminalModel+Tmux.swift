/// tmux 3.5a drawing sixel itself (`TerminalKind.tmux35`), as its image.c and screen-write.c do:
/// - a sixel becomes an image of the pane at the cursor, covering the cells its pixels need; a tenth
///   image frees the oldest (`all_images_count == 10`), which stays on the outer terminal until the
///   pane is redrawn;
/// - text written over an image's cells frees it; an erase (`ECH`, `EL`, `ED`) or a scroll frees every
///   image on the rows it touches; a sixel over another frees nothing;
/// - a freed image makes tmux redraw the pane once the program's output is processed (`idle()`):
///   text, then every image it still keeps, in order.
struct TmuxImage {
    var key: ImageKey
    var column: Int, row: Int, columns: Int, rows: Int
}

extension TerminalModel {
    /// The most images tmux 3.5a keeps.
    static let tmuxImageLimit = 9

    /// Stores a sixel just placed at the cursor.
    func tmuxStore(_ key: ImageKey, columns: Int, rows: Int) {
        tmuxImages.append(TmuxImage(key: key, column: cursor.column, row: cursor.row, columns: columns, rows: rows))
        if tmuxImages.count > Self.tmuxImageLimit { tmuxImages.removeFirst() }
    }

    /// Frees the images intersecting `rows` (and `columns`; nil: the whole rows).
    func tmuxFree(rows: Range<Int>, columns: Range<Int>?) {
        let before = tmuxImages.count
        tmuxImages.removeAll { image in
            let rowsMeet = rows.lowerBound < image.row + image.rows && image.row < rows.upperBound
            let columnsMeet = columns.map { $0.lowerBound < image.column + image.columns && image.column < $0.upperBound } ?? true
            return rowsMeet && columnsMeet
        }
        if tmuxImages.count != before { tmuxRedrawOwed = true }
    }

    /// The program has written all it had: tmux redraws the pane if it owes a redraw (the outer
    /// terminal then shows exactly the images tmux keeps). Nothing for other kinds.
    public func idle() {
        guard kind.keepsImagesLikeTmux, tmuxRedrawOwed else { return }
        tmuxRedrawOwed = false
        let width = size.columns, height = size.rows
        layer = Array(repeating: nil, count: layer.count)
        for image in tmuxImages {
            for dy in 0..<image.rows where image.row + dy < height {
                for dx in 0..<image.columns where image.column + dx < width {
                    layer[(image.row + dy) * width + image.column + dx] = ImageFragment(image: image.key, dx: dx, dy: dy)
                }
            }
        }
    }
}
