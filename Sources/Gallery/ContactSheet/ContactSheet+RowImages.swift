import ImageCodecs
import TerminalGraphics

/// A grid row's images drawn as one bitmap (`ContactSheet.rowImageWidth`): tmux drawing sixel itself
/// keeps only a few images at a time (`TmuxImages`), and a sheet written once lost its earlier
/// images when tmux redrew the pane. Each image goes where it would go alone (fitted into its cell
/// rectangle as `SixelRenderer` fits it, with whole sixel bands, centred by cells as
/// `FrameComposer.placement` centres it); the space between them is transparent.
extension ContactSheet {
    /// One image of a row, before composition: its offset in the row and its cell rectangle.
    struct RowImage {
        var offset: Int
        var image: Image
        var rect: CellRect
    }

    /// One composed bitmap: the cell rectangle it covers (rows from 0) and its pixels.
    struct RowBitmap {
        var rect: CellRect
        var image: Image
        /// The row offsets of the images in it.
        var offsets: [Int]
    }

    /// Which of `rects` (by index, left to right) share a bitmap: a run of rectangles goes into one
    /// while it spans at most `maxWidth` pixels of `cellWidth`-pixel cells (a wider one goes alone).
    static func pieces(_ rects: [CellRect], cellWidth: Int, maxWidth: Int) -> [[Int]] {
        var groups: [[Int]] = []
        for i in rects.indices.sorted(by: { rects[$0].column < rects[$1].column }) {
            if let first = groups.last?.first, (rects[i].maxColumn - rects[first].column) * max(1, cellWidth) <= maxWidth {
                groups[groups.count - 1].append(i)
            } else {
                groups.append([i])
            }
        }
        return groups
    }

    /// `images` drawn into bitmaps at most `maxWidth` pixels wide (`pieces`), each `imageRows`
    /// cells tall in whole sixel bands.
    static func composed(_ images: [RowImage], imageRows: Int, cellPixels: PixelSize, maxWidth: Int) -> [RowBitmap] {
        let cw = max(1, cellPixels.width), ch = max(1, cellPixels.height)
        let height = SixelRenderer.bandedHeight(imageRows * ch)
        return pieces(images.map(\.rect), cellWidth: cw, maxWidth: maxWidth).map { indices in
            let group = indices.map { images[$0] }
            let left = group[0].rect.column
            let columns = group.map(\.rect.maxColumn).max()! - left
            let width = columns * cw
            var canvas = [UInt8](repeating: 0, count: width * height * 4)
            for item in group {
                let size = item.image.size.scaledToFit(PixelSize(width: item.rect.columns * cw, height: height))
                let place = CellRect(column: item.rect.column, row: 0, columns: item.rect.columns, rows: imageRows)
                    .centring(CellSize(columns: (size.width + cw - 1) / cw, rows: (size.height + ch - 1) / ch))
                let x0 = (place.column - left) * cw, y0 = place.row * ch
                let pixels = item.image.pixels(scaledTo: size)
                for y in 0..<size.height where y0 + y < height {
                    let count = min(size.width, width - x0) * 4
                    guard count > 0 else { break }
                    let source = y * size.width * 4, target = ((y0 + y) * width + x0) * 4
                    canvas.replaceSubrange(target..<target + count, with: pixels[source..<source + count])
                }
            }
            return RowBitmap(rect: CellRect(column: left, row: 0, columns: columns, rows: imageRows),
                             image: Image(width: width, height: height, pixels: canvas), offsets: group.map(\.offset))
        }
    }
}
