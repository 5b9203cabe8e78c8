/// Sixel (`ESC P P1;P2;P3 q data ESC \`): placed at the cursor, covering the cells its pixel size
/// needs (raster attributes `"Pan;Pad;Ph;Pv`, else the extent of the data).
extension TerminalModel {
    func deviceControl(_ body: [UInt8]) {
        if kind.showsPlaceholders, body.starts(with: Array("tmux;".utf8)) {
            // tmux's passthrough: what it wraps goes to the outer terminal (kitty) as it is.
            var inner = ControlStringSplitter()
            for case .apc(let command) in inner.feed(Array(body.dropFirst(5))) { applicationCommand(command) }
            return
        }
        guard let q = body.firstIndex(of: UInt8(ascii: "q")),
              body[..<q].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ";") }) else { return }
        guard kind.showsSixel else { return }  // tmux 3.3a and kitty drop sixel
        let data = Array(body[(q + 1)...])
        let (width, height) = Self.sixelSize(data)
        guard width > 0, height > 0 else { return }
        let columns = (width + cellWidth - 1) / cellWidth, rows = (height + cellHeight - 1) / cellHeight
        if cursor.row + rows >= size.rows {
            diagnostics.append("sixel of \(rows) rows at row \(cursor.row) reaches the last row: the screen scrolls")
        }
        place(.sixel(Self.hash(body)), placement: 0, columns: columns, rows: rows)
        if kind.keepsImagesLikeTmux { tmuxStore(.sixel(Self.hash(body)), columns: columns, rows: rows) }
    }

    /// The pixel size of sixel data: the raster attributes' when given (the last band of a height
    /// that is no multiple of 6 is partial), else the data's extent.
    static func sixelSize(_ data: [UInt8]) -> (width: Int, height: Int) {
        var rasterWidth = 0, rasterHeight = 0
        var index = 0
        if data.first == UInt8(ascii: "\"") {
            var numbers: [Int] = [], current = 0
            index = 1
            while index < data.count, (data[index] >= 0x30 && data[index] <= 0x39) || data[index] == UInt8(ascii: ";") {
                if data[index] == UInt8(ascii: ";") { numbers.append(current); current = 0 } else { current = current * 10 + Int(data[index] - 0x30) }
                index += 1
            }
            numbers.append(current)
            if numbers.count >= 4 { rasterWidth = numbers[2]; rasterHeight = numbers[3] }
        }
        var x = 0, maxX = 0, bands = 0, bandHasData = false, lastBits = 0
        while index < data.count {
            let byte = data[index]
            switch byte {
            case UInt8(ascii: "#"):  // colour: #n or #n;...; skip the numbers
                index += 1
                while index < data.count, (data[index] >= 0x30 && data[index] <= 0x39) || data[index] == UInt8(ascii: ";") { index += 1 }
                continue
            case UInt8(ascii: "!"):  // repeat: !n then one sixel
                index += 1
                var count = 0
                while index < data.count, data[index] >= 0x30 && data[index] <= 0x39 { count = count * 10 + Int(data[index] - 0x30); index += 1 }
                if index < data.count, data[index] >= 0x3F, data[index] <= 0x7E {
                    x += count
                    bandHasData = true
                    lastBits |= Int(data[index] - 0x3F)
                }
            case UInt8(ascii: "$"): x = 0
            case UInt8(ascii: "-"):
                bands += 1
                x = 0
                bandHasData = false
                lastBits = 0
            case 0x3F...0x7E:
                x += 1
                bandHasData = true
                lastBits |= Int(byte - 0x3F)
            default: break
            }
            maxX = max(maxX, x)
            index += 1
        }
        let dataHeight = bands * 6 + (bandHasData ? 6 : 0)
        _ = lastBits
        if rasterWidth > 0, rasterHeight > 0 { return (rasterWidth, rasterHeight) }
        return (maxX, dataHeight)
    }

    /// FNV-1a, 64 bits.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return h
    }
}
