import ImageCodecs

/// A small truecolor half-block painter (`▀`, upper pixel in the foreground colour, lower pixel in the
/// background): two image pixels per cell vertically, area-averaged, transparent pixels blended over
/// `background`. The gallery's fallback until the TerminalGraphics renderers are wired in.
public struct HalfBlockPainter: CellPainter {
    /// Colour transparent pixels are blended against.
    public var background: (r: UInt8, g: UInt8, b: UInt8)
    /// Colour depth of the SGR sequences.
    public var depth: ColorChoice

    /// Creates a painter.
    public init(background: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0), depth: ColorChoice = .truecolor) {
        self.background = background
        self.depth = depth
    }

    /// The SGR parameters selecting `c` as foreground (or background) in this painter's depth.
    func sgr(_ c: RGB, background isBackground: Bool) -> String {
        switch depth {
        case .truecolor: return "\(isBackground ? 48 : 38);2;\(c.r);\(c.g);\(c.b)"
        case .palette256: return "\(isBackground ? 48 : 38);5;\(ScreenColor.nearestPaletteIndex(r: c.r, g: c.g, b: c.b))"
        case .basic16:
            let n = PaletteColors.nearestBasic(r: c.r, g: c.g, b: c.b, count: 16)
            return n < 8 ? "\((isBackground ? 40 : 30) + n)" : "\((isBackground ? 100 : 90) + n - 8)"
        }
    }

    /// The sampling grid (columns × 2·rows "pixels") that fits `image` in `cells`, keeping its aspect
    /// ratio with the real cell shape.
    public static func grid(for image: PixelSize, cells: TermSize, cellPixels: PixelSize) -> TermSize {
        guard image.width > 0, image.height > 0, cells.columns > 0, cells.rows > 0 else { return TermSize(columns: 0, rows: 0) }
        // Each sample is cellPixels.width wide and cellPixels.height / 2 tall.
        let sampleW = Double(max(1, cellPixels.width)), sampleH = Double(max(1, cellPixels.height)) / 2
        let boxW = Double(cells.columns) * sampleW, boxH = Double(cells.rows * 2) * sampleH
        let scale = min(boxW / Double(image.width), boxH / Double(image.height))
        let columns = min(cells.columns, max(1, Int((Double(image.width) * scale / sampleW).rounded())))
        var halfRows = min(cells.rows * 2, max(1, Int((Double(image.height) * scale / sampleH).rounded())))
        // An odd count leaves a last cell row half in the terminal's background colour, which shows
        // as a stripe: drop that half-row.
        if halfRows > 1 && halfRows % 2 == 1 { halfRows -= 1 }
        return TermSize(columns: columns, rows: halfRows)
    }

    /// Paints rows of `▀` with 24-bit SGR colours.
    public func paint(_ image: Image, cells: TermSize, cellPixels: PixelSize) -> PaintedImage? {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4 else { return nil }
        let grid = Self.grid(for: image.size, cells: cells, cellPixels: cellPixels)
        guard grid.columns > 0, grid.rows > 0 else { return nil }
        let samples = sample(image, columns: grid.columns, rows: grid.rows)
        let cellRows = (grid.rows + 1) / 2
        var rows: [[UInt8]] = []
        rows.reserveCapacity(cellRows)
        for cellRow in 0..<cellRows {
            var line: [UInt8] = []
            line.reserveCapacity(grid.columns * 40)
            var last: (top: RGB, bottom: RGB?)? = nil
            for column in 0..<grid.columns {
                let top = samples[(cellRow * 2) * grid.columns + column]
                let bottomRow = cellRow * 2 + 1
                let bottom: RGB? = bottomRow < grid.rows ? samples[bottomRow * grid.columns + column] : nil
                let unchanged = last.map { $0.top == top && $0.bottom == bottom } ?? false
                if !unchanged {
                    line += Array("\u{1B}[\(sgr(top, background: false))m".utf8)
                    if let bottom {
                        line += Array("\u{1B}[\(sgr(bottom, background: true))m".utf8)
                    } else {
                        line += Array("\u{1B}[49m".utf8)
                    }
                    last = (top, bottom)
                }
                line += [0xE2, 0x96, 0x80]  // ▀
            }
            line += Array("\u{1B}[0m".utf8)
            rows.append(line)
        }
        var identity = Hasher()
        identity.combine(image.id)
        identity.combine(grid)
        identity.combine(depth)
        return PaintedImage(rows: rows, cells: TermSize(columns: grid.columns, rows: cellRows),
                            identity: UInt64(bitPattern: Int64(identity.finalize())))
    }

    struct RGB: Equatable { var r: UInt8, g: UInt8, b: UInt8 }

    /// Area-averages `image` down (or nearest-samples up) to columns × rows, blending alpha.
    func sample(_ image: Image, columns: Int, rows: Int) -> [RGB] {
        var out: [RGB] = []
        out.reserveCapacity(columns * rows)
        let w = image.width, h = image.height
        image.pixels.withUnsafeBufferPointer { px in
            for y in 0..<rows {
                let y0 = y * h / rows, y1 = max(y0 + 1, (y + 1) * h / rows)
                for x in 0..<columns {
                    let x0 = x * w / columns, x1 = max(x0 + 1, (x + 1) * w / columns)
                    var r = 0, g = 0, b = 0, n = 0
                    let stepY = max(1, (y1 - y0) / 8), stepX = max(1, (x1 - x0) / 8)
                    var yy = y0
                    while yy < y1 {
                        var xx = x0
                        while xx < x1 {
                            let i = (yy * w + xx) * 4
                            let a = Int(px[i + 3])
                            r += (Int(px[i]) * a + Int(background.r) * (255 - a)) / 255
                            g += (Int(px[i + 1]) * a + Int(background.g) * (255 - a)) / 255
                            b += (Int(px[i + 2]) * a + Int(background.b) * (255 - a)) / 255
                            n += 1
                            xx += stepX
                        }
                        yy += stepY
                    }
                    out.append(RGB(r: UInt8(r / n), g: UInt8(g / n), b: UInt8(b / n)))
                }
            }
        }
        return out
    }
}
