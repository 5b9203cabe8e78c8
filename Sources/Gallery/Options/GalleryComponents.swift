import Foundation
import ImageCodecs

/// The parts of the product that the lower layers replace, gathered in one place so that wiring the
/// ImageManager/ImageSlot binding and the TerminalGraphics renderers is a change of factories, not of
/// the gallery. `standard` is what this build ships: local files only, the fallback half-block
/// painter, an environment-only probe, the demo from local files.
///
/// ```swift
/// var parts = GalleryComponents.standard
/// parts.makeSource = { options, inbox in ManagerImageSource(options: options, inbox: inbox) }
/// exit(GalleryRunner.run(options, components: parts))
/// ```
public struct GalleryComponents {
    /// The image source of the interactive gallery. The inbox takes `.status` events (downloader
    /// start/stop, bytes, cache hits) for the status bar.
    public var makeSource: (GalleryOptions, UIInbox<GalleryEvent>) -> CellImageSource
    /// The painter that turns images into terminal bytes for a cell rectangle.
    public var makePainter: (GalleryOptions, TerminalEnvironment) -> CellPainter
    /// Loads one entry to completion for `--print` (nil target: details only). Called on several
    /// threads at once.
    public var loadForPrint: @Sendable (URLListEntry, PixelSize?) -> Result<(Image, ImageDetails), LoadFailure>
    /// The text of `--probe`.
    public var probeReport: () -> String
    /// The entries of `--demo`, nil when the demo images cannot be found.
    public var demoList: (GalleryOptions) -> URLList?
    /// Whether frames are wrapped in synchronized output.
    public var synchronizedOutput: (TerminalEnvironment) -> Bool
    /// A note shown in the status bar at start (nil for none).
    public var startupNote: (GalleryOptions) -> String?
    /// Empties the disk cache (`--clear-cache`); returns an error message, or nil on success.
    public var clearCache: (GalleryOptions) -> String?

    /// Creates components from every factory.
    public init(makeSource: @escaping (GalleryOptions, UIInbox<GalleryEvent>) -> CellImageSource,
                makePainter: @escaping (GalleryOptions, TerminalEnvironment) -> CellPainter,
                loadForPrint: @escaping @Sendable (URLListEntry, PixelSize?) -> Result<(Image, ImageDetails), LoadFailure>,
                probeReport: @escaping () -> String,
                demoList: @escaping (GalleryOptions) -> URLList?,
                synchronizedOutput: @escaping (TerminalEnvironment) -> Bool,
                startupNote: @escaping (GalleryOptions) -> String?,
                clearCache: @escaping (GalleryOptions) -> String?) {
        self.makeSource = makeSource
        self.makePainter = makePainter
        self.loadForPrint = loadForPrint
        self.probeReport = probeReport
        self.demoList = demoList
        self.synchronizedOutput = synchronizedOutput
        self.startupNote = startupNote
        self.clearCache = clearCache
    }

    /// This build's components: local files, half blocks, environment probe, local demo.
    public static var standard: GalleryComponents {
        GalleryComponents(
            makeSource: { _, _ in LocalFileImageSource() },
            makePainter: { options, env in HalfBlockPainter(depth: options.colors ?? env.colorDepth) },
            loadForPrint: { entry, target in
                switch entry.location {
                case .file(let path): return LocalFileImageSource.load(path: path, target: target ?? PixelSize(width: 1, height: 1))
                case .remote: return .failure(LoadFailure(message: "remote URLs need the network layer"))
                }
            },
            probeReport: { TerminalEnvironment.current().report },
            demoList: { _ in DemoAssets.list() },
            synchronizedOutput: { $0.supportsSynchronizedOutput },
            startupNote: { $0.demo ? "demo: local files (loopback server not wired yet)" : nil },
            clearCache: { _ in "there is no disk cache in this build yet" }
        )
    }
}
