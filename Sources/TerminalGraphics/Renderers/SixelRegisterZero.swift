/// Colour register 0 of a sixel stream made a colour no pixel uses.
///
/// tmux (3.4, 3.5a) drawing a sixel itself drops the stream's `P2=1` ("pixels not drawn keep their
/// colour") and writes the image again without it, and its scaling reads the rows past the image as
/// "not drawn": the terminal then fills those pixels with register 0, which libsixel gives the
/// image's first palette colour (a line of that colour under every picture, up to a text row high
/// when the height is not whole bands). Every register of the stream is moved up by one and register
/// 0 is defined as `colour` (the terminal's background), so the pixels tmux leaves undrawn match
/// what is around the picture. Needs a free register: the stream has at most 255.
enum SixelRegisterZero {
    /// `stream` (`ESC P … q …`) with every `#n` turned into `#n+1` and `#0;2;r;g;b` defined first.
    static func shifted(_ stream: [UInt8], zero colour: RGBColor) -> [UInt8] {
        guard let q = stream.prefix(16).firstIndex(of: UInt8(ascii: "q")) else { return stream }
        let hash = UInt8(ascii: "#")
        var out = [UInt8]()
        out.reserveCapacity(stream.count + stream.count / 16 + 24)
        out += stream[...q]
        var i = q + 1
        // Raster attributes ("Pan;Pad;Ph;Pv) stay first.
        if i < stream.count, stream[i] == UInt8(ascii: "\"") {
            let end = stream[i...].firstIndex(where: { $0 == hash || $0 == 0x1B || (($0 < 0x30 || $0 > 0x3B) && $0 != UInt8(ascii: "\"")) }) ?? stream.count
            out += stream[i..<end]
            i = end
        }
        func percent(_ v: UInt8) -> String { String((Int(v) * 100 + 127) / 255) }
        out += Array("#0;2;\(percent(colour.r));\(percent(colour.g));\(percent(colour.b))".utf8)
        while i < stream.count {
            let byte = stream[i]
            out.append(byte)
            i += 1
            guard byte == hash else { continue }
            var number = 0, digits = 0
            while i < stream.count, stream[i] >= 0x30, stream[i] <= 0x39, digits < 6 {
                number = number * 10 + Int(stream[i] - 0x30)
                digits += 1
                i += 1
            }
            if digits > 0 { out += Array(String(number + 1).utf8) }
        }
        return out
    }

    /// The most common colour of an RGB888 bitmap's last row (each channel to 5 bits): what a line of
    /// undrawn pixels under the picture is least visible as when the background is unknown.
    static func bottomColour(rgb: [UInt8], width: Int, height: Int) -> RGBColor {
        guard width > 0, height > 0, rgb.count >= width * height * 3 else { return RGBColor(r: 0, g: 0, b: 0) }
        var counts: [Int: Int] = [:]
        let start = (height - 1) * width * 3
        for x in 0..<width {
            let p = start + x * 3
            let key = Int(rgb[p] >> 3) << 10 | Int(rgb[p + 1] >> 3) << 5 | Int(rgb[p + 2] >> 3)
            counts[key, default: 0] += 1
        }
        let key = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 0
        func channel(_ shift: Int) -> UInt8 { UInt8((key >> shift & 31) << 3 | 4) }
        return RGBColor(r: channel(10), g: channel(5), b: channel(0))
    }
}
