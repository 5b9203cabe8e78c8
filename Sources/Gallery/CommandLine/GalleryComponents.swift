import Foundation
import ImageCodecs
import TerminalGraphics

/// The parts of the product built from the lower layers, gathered in one place so tests can swap a
/// factory (a canned loader, a fixed probe) without touching the gallery. `live(_:)` is the product:
/// the web-image stack (`ImageManager`, `ImageSlot`, `ImagePrefetcher`) and the TerminalGraphics
/// renderers chosen by the terminal probe.
///
/// ```swift
/// var parts = GalleryComponents.live(options)
/// parts.probeReport = { _ in "probe ok" }
/// exit(GalleryRunner.run(options, components: parts))
/// ```
public struct GalleryComponents {
    /// Decides everything about the terminal for a use (the gallery, a sheet): probes it when it
    /// is one (before curses takes it over), else reads the environment.
    public var profile: (GalleryOptions, TerminalProfile.Use) -> TerminalProfile
    /// The image source of the interactive gallery. The inbox takes `.status` events (downloader
    /// start/stop, bytes) for the status bar.
    public var makeSource: (GalleryOptions, UIInbox<GalleryEvent>) -> CellImageSource
    /// The painter that turns images into terminal bytes for a cell rectangle.
    public var makePainter: (GalleryOptions, TerminalProfile) -> CellPainter
    /// Loads one entry to completion for `--print` (nil target: details only), awaiting the manager;
    /// several run at once (the sheet's look-ahead).
    public var loadForPrint: @Sendable (URLListEntry, PixelSize?) async -> Result<(Image, ImageDetails), LoadFailure>
    /// The text of `--probe`.
    public var probeReport: (GalleryOptions) -> String
    /// The entries of `--demo`, nil when the demo cannot start.
    public var demoList: (GalleryOptions) -> URLList?
    /// A note shown in the status bar at start (nil for none).
    public var startupNote: (GalleryOptions) -> String?
    /// Empties the disk cache (`--clear-cache`); returns an error message, or nil on success.
    public var clearCache: (GalleryOptions) -> String?
    /// Extra `--stats` lines (download and cache counters).
    public var statsLines: () -> [String]
    /// Why the disk cache is off or degraded, if it is (the status bar shows it in the gallery;
    /// `--print` prints it once at the end).
    public var diskNote: () -> String? = { nil }
    /// Waits until the cache's queued disk writes are done. Called before the process exits: a write
    /// cut off by the exit leaves a temp file, and a worker thread still running while the process
    /// exits can crash inside a C library's exit handlers (seen: two `--print` runs on one cache).
    public var finishWrites: () -> Void = {}
    /// Saves an image's original into `--save-dir` (the `s` key); nil when not available.
    public var saveOriginal: ((ImageLocation, @escaping @Sendable (String) -> Void) -> Void)?
    /// Reads the loaders' live counters (active and queued downloads, bytes) into the status bar.
    public var statusRefresh: (@Sendable (inout StatusInfo) -> Void)?

    /// Creates components from every factory.
    public init(profile: @escaping (GalleryOptions, TerminalProfile.Use) -> TerminalProfile,
                makeSource: @escaping (GalleryOptions, UIInbox<GalleryEvent>) -> CellImageSource,
                makePainter: @escaping (GalleryOptions, TerminalProfile) -> CellPainter,
                loadForPrint: @escaping @Sendable (URLListEntry, PixelSize?) async -> Result<(Image, ImageDetails), LoadFailure>,
                probeReport: @escaping (GalleryOptions) -> String,
                demoList: @escaping (GalleryOptions) -> URLList?,
                startupNote: @escaping (GalleryOptions) -> String?,
                clearCache: @escaping (GalleryOptions) -> String?,
                statsLines: @escaping () -> [String]) {
        self.profile = profile
        self.makeSource = makeSource
        self.makePainter = makePainter
        self.loadForPrint = loadForPrint
        self.probeReport = probeReport
        self.demoList = demoList
        self.startupNote = startupNote
        self.clearCache = clearCache
        self.statsLines = statsLines
    }

    /// The product's components for `options` (see `WebImageStack`).
    public static func live(_ options: GalleryOptions) -> GalleryComponents { WebImageStack(options: options).components }
}
