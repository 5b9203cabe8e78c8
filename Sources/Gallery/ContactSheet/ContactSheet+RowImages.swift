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

    /// `images` (in column order) drawn into bitmaps at most `maxWidth` pixels wide (an image wider
    /// than that alone gets a bitmap of its own), each `imageRows` cells tall in whole sixel bands.
    static func composed(_ images: [RowImage], imageRows: Int, cellPixels: PixelSize, maxWidth: Int) -> [RowBitmap] {
        let cw = max(1, cellPixels.width), ch = max(1, cellPixels.height)
        let height = max(6, imageRows * ch / 6 * 6)
        var groups: [[RowImage]] = []
        for item in images.sorted(by: { $0.rect.column < $1.rect.column }) {
            if let first = groups.last?.first, (item.rect.column + item.rect.columns - first.rect.column) * cw <= maxWidth {
                groups[groups.count - 1].append(item)
            } else {
                groups.append([item])
            }
        }
        return groups.map { group in
            let left = group[0].rect.column
            let columns = group.map { $0.rect.column + $0.rect.columns }.max()! - left
            let width = columns * cw
            var canvas = [UInt8](repeating: 0, count: width * height * 4)
            for item in group {
                let box = PixelSize(width: item.rect.columns * cw, height: height)
                let size = item.image.size.scaledToFit(box)
                let used = CellSize(columns: min(item.rect.columns, (size.width + cw - 1) / cw), rows: min(imageRows, (size.height + ch - 1) / ch))
                let x0 = (item.rect.column - left + (item.rect.columns - used.columns) / 2) * cw
                let y0 = (imageRows - used.rows) / 2 * ch
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
