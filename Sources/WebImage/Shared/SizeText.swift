/// Byte counts and durations as short text for error messages, captions and the status bar
/// ("3000 bytes", "1.2 MB", "10 GB", "2 s", "250 ms"). The one formatter of sizes.
public enum SizeText {
    /// Exact below 100 000 ("3000 bytes"), else `size` ("1.2 MB").
    public static func bytes(_ count: Int64) -> String {
        count < 100_000 ? "\(count) bytes" : size(count)
    }

    /// "3000 of 40000 bytes", or "1.2 MB of 3.4 MB" when either is large.
    public static func bytes(_ count: Int64, of total: Int64) -> String {
        count < 100_000 && total < 100_000 ? "\(count) of \(total) bytes" : "\(size(count)) of \(size(total))"
    }

    /// Binary units with one decimal at most: "512 B", "12 KB", "64 MB", "1.5 GB", "10 GB".
    public static func size(_ count: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB", "PB"]
        var unit = 0
        var scale: Int64 = 1
        while unit < units.count - 1 && count >= scale * 1024 {
            scale *= 1024
            unit += 1
        }
        if unit == 0 { return "\(max(0, count)) B" }
        // No `count * 10`: a hostile Content-Length can be near Int64.max.
        let whole = count / scale
        let tenth = (count % scale) * 10 / scale
        return tenth == 0 || whole >= 100 ? "\(whole) \(units[unit])" : "\(whole).\(tenth) \(units[unit])"
    }

    /// "2 s", "1.5 s", "250 ms".
    public static func duration(_ duration: Duration) -> String {
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if ms < 1000 { return "\(ms) ms" }
        let tenths = (ms + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}
