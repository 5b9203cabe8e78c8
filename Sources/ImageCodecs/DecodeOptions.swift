/// How to decode: target box, limits, animation.
public struct DecodeOptions: Sendable, Hashable {
    /// Default pixel cap: 100 megapixels.
    public static let defaultPixelLimit = 100_000_000

    /// Decode to fit within this box (aspect ratio kept, never upscaled); `nil` means full size.
    public var targetSize: PixelSize?
    /// Images whose header announces more pixels than this are rejected with `DecodeError.tooLarge`
    /// before any pixel buffer is allocated.
    public var pixelLimit: Int
    /// Decode only the first frame of an animation.
    public var firstFrameOnly: Bool
    /// Most scans of a progressive JPEG decoded (a normal file has about ten); later scans are
    /// left out and the image is shown as of the last one allowed.
    public var maxScans: Int
    /// Work allowed per progressive JPEG, in scans × stored pixels (each scan walks every block of
    /// the image, whatever the output scale): a 100-megapixel file gets 10 scans, a 16-megapixel one
    /// 62, a 10-megapixel one `maxScans`. At least two scans (the first rough picture) are always allowed.
    public var scanCostBudget: Int
    /// Most bytes of pixels one decode may hold for an animation: its working canvas (RGBA, as
    /// many copies as the library keeps) plus every frame held, at the target size. A canvas that
    /// alone exceeds it is `DecodeError.tooLarge`; an animation whose frames do not all fit is
    /// streamed (GIF, WebP, AVIF: `FrameStream`, its frames decoded as they are shown); a JPEG XL
    /// animation's frames past it are dropped.
    public var outputByteLimit: Int
    /// Most frames of an animation, held or streamed; later ones are dropped (the animation loops
    /// after the last one).
    public var maxFrames: Int
    /// Most bytes an animation's held frames may hold, working canvases apart (the first frame is
    /// always held): `defaultFrameByteLimit(targetSize:)` unless set. Past it the animation is
    /// streamed, as at `outputByteLimit`.
    public var frameByteLimit: Int
    /// The budget this decode's working memory is reserved from (`DecodeMemory.shared` unless a
    /// test names its own).
    public var memory: DecodeMemory

    /// Default `maxScans`.
    public static let defaultMaxScans = 100
    /// Default `scanCostBudget`: 10⁹ scan-pixels (at most ≈ 0.6 s of entropy decoding here: a
    /// refinement scan of every coefficient costs ≈ 0.6 ns per pixel).
    public static let defaultScanCostBudget = 1_000_000_000
    /// Default `outputByteLimit`: 256 MB.
    public static let defaultOutputByteLimit = 256 << 20
    /// Default `maxFrames`: 10,000 frames, 200 s or more of animation (browsers show a frame for at
    /// least 20 ms). A 22 MB GIF of a million one-pixel frames held 163 MB of frames in a process.
    public static let defaultMaxFrames = 10_000
    /// What a small box's frames may hold at least: a grid cell plays its thumbnail, and a screen
    /// of twenty cells playing long animations would otherwise hold twenty full views' budgets.
    public static let thumbnailFrameBytes = 16 << 20
    /// Frames of the box a decode keeps in any case, whatever `thumbnailFrameBytes` says.
    public static let framesKeptInAnyCase = 64

    /// Default `frameByteLimit` for a decode into `targetSize`: no limit of its own at full size
    /// (`outputByteLimit` bounds it), else `framesKeptInAnyCase` frames of the box, at least
    /// `thumbnailFrameBytes`: a full view's box reaches `outputByteLimit` first, a grid cell's is
    /// held to 16 MB (a 240×240 cell keeps about 72 frames, a 120×120 one about 290).
    public static func defaultFrameByteLimit(targetSize: PixelSize?) -> Int {
        guard let box = targetSize else { return .max }
        let (bytes, over) = box.area.multipliedReportingOverflow(by: 4 * framesKeptInAnyCase)
        return over ? .max : max(thumbnailFrameBytes, bytes)
    }

    /// Creates options.
    public init(
        targetSize: PixelSize? = nil, pixelLimit: Int = DecodeOptions.defaultPixelLimit, firstFrameOnly: Bool = false,
        maxScans: Int = DecodeOptions.defaultMaxScans, scanCostBudget: Int = DecodeOptions.defaultScanCostBudget,
        outputByteLimit: Int = DecodeOptions.defaultOutputByteLimit, maxFrames: Int = DecodeOptions.defaultMaxFrames,
        frameByteLimit: Int? = nil, memory: DecodeMemory = .shared
    ) {
        self.maxFrames = maxFrames
        self.frameByteLimit = frameByteLimit ?? Self.defaultFrameByteLimit(targetSize: targetSize)
        self.memory = memory
        self.targetSize = targetSize
        self.pixelLimit = pixelLimit
        self.firstFrameOnly = firstFrameOnly
        self.maxScans = maxScans
        self.scanCostBudget = scanCostBudget
        self.outputByteLimit = outputByteLimit
    }

    /// Scans allowed for a progressive JPEG of `area` stored pixels: `maxScans`, fewer when
    /// `scanCostBudget` runs out first, never fewer than two.
    public func scanLimit(area: Int) -> Int {
        max(2, min(maxScans, scanCostBudget / max(1, area)))
    }
}
