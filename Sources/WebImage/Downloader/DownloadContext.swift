import ImageCodecs

/// Per-request extras (SDWebImage's context dictionary, typed): how to decode, which headers to add.
///
/// ```swift
/// var context = DownloadContext(targetSize: PixelSize(width: 320, height: 200))
/// context.headers["If-None-Match"] = stored.etag
/// ```
public struct DownloadContext: Sendable {
    /// How the bytes become an image (target box, pixel cap, first frame only).
    public var decodeOptions: DecodeOptions
    /// Extra request headers (`If-None-Match`, `If-Modified-Since`, `Range`, …); they override the
    /// downloader's headers of the same name, and pass through `headersFilter` last.
    public var headers: [String: String]
    /// The response size cap for this request; nil uses the downloader's `maxResponseBytes`.
    public var maxResponseBytes: Int64?
    /// Where the request waits among waiting requests of the same priority: a higher order starts
    /// first; nil waits by arrival (the downloader's FIFO or LIFO). The gallery gives each new screen a
    /// higher order than the last (the newest screen first) and, within a screen, each cell a lower
    /// one than the cell before it (reading order from the selection), as a browser loads a page.
    public var queueOrder: Int?

    /// Creates a context.
    public init(decodeOptions: DecodeOptions = DecodeOptions(), headers: [String: String] = [:], maxResponseBytes: Int64? = nil) {
        self.decodeOptions = decodeOptions
        self.headers = headers
        self.maxResponseBytes = maxResponseBytes
    }

    /// Creates a context decoding to fit within `targetSize`.
    public init(targetSize: PixelSize?, headers: [String: String] = [:]) {
        self.init(decodeOptions: DecodeOptions(targetSize: targetSize), headers: headers)
    }

    /// The decode target box (shorthand for `decodeOptions.targetSize`).
    public var targetSize: PixelSize? {
        get { decodeOptions.targetSize }
        set { decodeOptions.targetSize = newValue }
    }
}
