/// Premultiplied (associated) alpha to straight alpha, for the libraries that hand over RGBA8 with
/// each colour already multiplied by its alpha: cairo's ARGB32 (SVG, through librsvg; `CRSVG` puts
/// the bytes in RGBA order) and libtiff's RGBA reader (TIFF, which premultiplies unassociated alpha
/// too; `CTIFF` unpacks its ABGR words). Every coder outputs straight RGBA8.
enum PremultipliedAlpha {
    /// Each RGBA8 pixel of `pixels` divided by its alpha: a colour c under alpha a (1…254) becomes
    /// (c·255 + a/2) / a, rounded to nearest, at most 255 (a colour over its alpha, which damaged
    /// data can hold); a transparent pixel becomes 0, 0, 0, 0 and an opaque one stays as it is.
    static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = pixels.baseAddress else { return }
        var p = base
        let end = base + pixels.count / 4 * 4
        while p < end {
            let a = Int(p[3])
            if a == 0 {
                p[0] = 0; p[1] = 0; p[2] = 0
            } else if a != 255 {
                p[0] = UInt8(min(255, (Int(p[0]) * 255 + a / 2) / a))
                p[1] = UInt8(min(255, (Int(p[1]) * 255 + a / 2) / a))
                p[2] = UInt8(min(255, (Int(p[2]) * 255 + a / 2) / a))
            }
            p += 4
        }
    }
}
