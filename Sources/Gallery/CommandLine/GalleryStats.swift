import WebImage
/// The `--stats` report printed on exit.
public struct GalleryStats: Sendable {
    /// Frames drawn.
    public var frames: Int
    /// Keys handled.
    public var keys: Int
    /// Median key-to-frame time in milliseconds.
    public var keyToFrameP50: Double?
    /// 95th percentile key-to-frame time in milliseconds.
    public var keyToFrameP95: Double?
    /// Status counters at exit.
    public var status: StatusInfo
    /// Seconds the gallery ran.
    public var seconds: Double
    /// Milliseconds from the quit (its key read) to now: the loop's end, every load cancelled, the
    /// terminal restored and the cache's writes done; nil when the app did not quit.
    public var quitMilliseconds: Double?

    /// Collects the figures of a finished app.
    public init(app: GalleryApp, started: Double) {
        frames = app.framesPresented
        keys = app.keyLatencies.count
        keyToFrameP50 = GalleryStats.percentile(app.keyLatencies, 0.50)
        keyToFrameP95 = GalleryStats.percentile(app.keyLatencies, 0.95)
        status = app.status
        let now = GalleryApp.now()
        seconds = now - started
        quitMilliseconds = app.quitRequestedAt.map { (now - $0) * 1000 }
    }

    /// The p-th percentile (nearest rank) of `values`.
    public static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    /// Lines of "name value".
    public var report: String {
        func milliseconds(_ value: Double?) -> String {
            value.map { String(Int(($0 * 10).rounded()) / 10) + "." + String(Int(($0 * 10).rounded()) % 10) + " ms" } ?? "-"
        }
        return [
            "sdgallery stats",
            "  run time          \(Int(seconds.rounded())) s",
            "  frames            \(frames)",
            "  keys              \(keys)",
            "  key-to-frame p50  \(milliseconds(keyToFrameP50))",
            "  key-to-frame p95  \(milliseconds(keyToFrameP95))",
            "  quit              \(milliseconds(quitMilliseconds))",
            "  bytes received    \(SizeText.size(status.bytesReceived))",
            "  cache hits        \(status.cacheHits)",
            "  failures          \(status.failures)",
            "  graphics errors   \(status.graphicsErrors)",
        ].joined(separator: "\n")
    }
}
