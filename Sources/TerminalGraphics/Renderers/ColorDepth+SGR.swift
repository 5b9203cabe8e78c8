extension ColorDepth {
    /// A comparable code for a colour in this depth: packed RGB for truecolor, else the palette
    /// index (nearest in OKLab). Text renderers compare codes to re-emit SGR only on a change.
    @inline(__always)
    func code(_ c: RGBColor) -> Int {
        switch self {
        case .truecolor: Int(c.r) << 16 | Int(c.g) << 8 | Int(c.b)
        case .color256: ColorPalette.nearest256(c)
        case .color16, .mono: ColorPalette.nearest16(c)
        }
    }

    /// Appends SGR parameters (without `CSI` and `m`) for a colour code of this depth.
    func appendSGR(_ code: Int, foreground: Bool, to out: inout [UInt8]) {
        switch self {
        case .truecolor:
            out += Array((foreground ? "38;2;" : "48;2;").utf8)
            EscapeSequence.appendDecimal(code >> 16, to: &out)
            out.append(UInt8(ascii: ";"))
            EscapeSequence.appendDecimal((code >> 8) & 0xFF, to: &out)
            out.append(UInt8(ascii: ";"))
            EscapeSequence.appendDecimal(code & 0xFF, to: &out)
        case .color256:
            out += Array((foreground ? "38;5;" : "48;5;").utf8)
            EscapeSequence.appendDecimal(code, to: &out)
        case .color16, .mono:
            let base = foreground ? (code < 8 ? 30 : 90) : (code < 8 ? 40 : 100)
            EscapeSequence.appendDecimal(base + code % 8, to: &out)
        }
    }

    /// Appends `CSI … m` setting whichever of foreground and background changed (nothing when
    /// neither did) and records the new codes.
    func appendColors(foreground: Int?, background: Int, last: inout (foreground: Int?, background: Int?), to line: inout [UInt8]) {
        let newForeground = foreground.flatMap { $0 == last.foreground ? nil : $0 }
        let newBackground = background == last.background ? nil : background
        guard newForeground != nil || newBackground != nil else { return }
        line += EscapeSequence.csiIntroducer
        if let newForeground { appendSGR(newForeground, foreground: true, to: &line) }
        if let newBackground {
            if newForeground != nil { line.append(UInt8(ascii: ";")) }
            appendSGR(newBackground, foreground: false, to: &line)
        }
        line.append(UInt8(ascii: "m"))
        if let newForeground { last.foreground = newForeground }
        if let newBackground { last.background = newBackground }
    }
}
