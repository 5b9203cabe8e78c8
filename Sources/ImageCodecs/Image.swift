import Synchronization

/// A decoded bitmap: 8-bit RGBA, **straight (non-premultiplied) alpha**, rows top to bottom,
/// `width * 4` bytes per row, no padding. Knows nothing of networks or terminals.
///
/// Animated images hold every frame in `frames` (each already composited to the full canvas) when
/// they fit the decode's budgets, else stream them (`FrameStream`: decoded as they are asked for);
/// read them either way with `frameCount`, `frameDurations` and `frameImage(_:)`. `pixels` is the
/// first frame's pixels.
///
/// ```swift
/// let image = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 320, height: 200)))
/// print(image.size, image.cost)
/// ```
public struct Image: Sendable {
    /// A process-unique identity, assigned at creation; copies share it. Renderers key their
    /// encoded-output caches on it.
    public let id: UInt64
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// RGBA8 straight-alpha pixels, `width * height * 4` bytes.
    public let pixels: [UInt8]
    /// Animation frames held in memory (empty for a still image and for a streamed animation: read
    /// frames with `frameImage(_:)`, which serves both).
    public let frames: [ImageFrame]
    /// The frames of an animation too long or too large to hold, decoded as they are asked for.
    let stream: FrameStream?
    /// How many times an animation plays; 0 means forever (a GIF's NETSCAPE repeat count + 1, WebP's
    /// loop count as is; 1 for a GIF without a loop extension).
    public let loopCount: Int
    /// Size of the image before any scaled decode (the file's own pixel size); equals `size` for a
    /// full decode.
    public let sourceSize: PixelSize
    /// The format of the encoded file it was decoded from, when known (`ImageCoders.decode` and the
    /// manager set it; it travels with the image through the memory cache and the thumbnail tier).
    public var sourceFormat: ImageFormat?
    /// The size in bytes of the encoded file it was decoded from, when known (as `sourceFormat`).
    public var sourceByteCount: Int?
    /// The early image this is, when a decoder made it final before the whole file was in
    /// (`IncrementalDecoding.sufficientImage()`); nil for an image of the whole file. It travels with
    /// the image like `sourceFormat` (the disk cache's early entries keep it).
    public var earlyTier: EarlyTier?

    /// Creates an image. `pixels.count` must equal `width * height * 4`; use `Image.make` to check.
    public init(
        width: Int, height: Int, pixels: [UInt8],
        frames: [ImageFrame] = [], loopCount: Int = 0, sourceSize: PixelSize? = nil
    ) {
        self.init(id: ImageIdentity.next(), width: width, height: height, pixels: pixels, frames: frames, loopCount: loopCount, sourceSize: sourceSize)
    }

    /// A streamed animation whose first frame is `pixels`.
    init(width: Int, height: Int, pixels: [UInt8], stream: FrameStream, loopCount: Int, sourceSize: PixelSize) {
        self.init(id: ImageIdentity.next(), width: width, height: height, pixels: pixels, frames: [], stream: stream,
                  loopCount: loopCount, sourceSize: sourceSize)
    }

    private init(id: UInt64, width: Int, height: Int, pixels: [UInt8], frames: [ImageFrame], stream: FrameStream? = nil,
                 loopCount: Int, sourceSize: PixelSize?) {
        self.id = id
        self.stream = stream
        self.width = width
        self.height = height
        self.pixels = pixels
        self.frames = frames
        self.loopCount = loopCount
        self.sourceSize = sourceSize ?? PixelSize(width: width, height: height)
    }

    /// The pixel size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Frame `index` of an animation as a still image (the image itself when it is not animated or
    /// has no such frame), with an identity of its own that every call gives again: renderers' caches
    /// and kitty's uploads key on the frame, so a frame painted again is found again. The identity
    /// is the image's with the frame's number above bit 40 (identities count up from 1: 2⁴⁰ images
    /// are never made; frames stop at `DecodeOptions.maxFrames`). A streamed frame is decoded now
    /// when it is not among the last few decoded: call it off the UI thread (the paint queue).
    public func frameImage(_ index: Int) -> Image {
        guard isAnimated, index >= 0, index < frameCount, index < 1 << 23 else { return self }
        let framePixels = stream.map { $0.pixels(of: index) ?? pixels } ?? frames[index].pixels
        return Image(id: id &+ (UInt64(index + 1) << 40), width: width, height: height, pixels: framePixels,
                     frames: [], loopCount: 0, sourceSize: sourceSize)
    }

    /// How many frames the animation has, held or streamed (0 for a still image).
    public var frameCount: Int { stream?.frameCount ?? frames.count }

    /// How long each frame shows (`ImageFrame.displayDuration`, the one rule), held or streamed.
    public var frameDurations: [Double] {
        stream.map { $0.durations.map(ImageFrame.displayDuration(of:)) } ?? frames.map(\.displayDuration)
    }

    /// Whether the frames are streamed (decoded as they are asked for) rather than held.
    public var isStreamed: Bool { stream != nil }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// Memory cost in bytes of what this image holds (used by cost-bounded caches): its pixels, and
    /// held frames' pixels, or a stream's encoded file, working canvases and window of frames.
    public var cost: Int {
        if let stream { return pixels.count + stream.byteCost }
        return pixels.count + (frames.count > 1 ? frames.reduce(0) { $0 + $1.pixels.count } : 0)
    }

    /// Bytes of every frame's pixels at once, held or not (what sending the whole animation at once
    /// costs, as kitty's uploads do); `cost` for an image that holds its frames.
    public var allFramesCost: Int {
        guard let stream else { return cost }
        let (frames, over) = stream.frameCount.multipliedReportingOverflow(by: pixels.count)
        return over ? .max : pixels.count + frames
    }

    /// The RGBA value at (x, y), for tests and samplers.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// One frame of an animation: a full-canvas RGBA8 straight-alpha bitmap and how long it shows.
public struct ImageFrame: Sendable {
    /// Pixels of the whole canvas after compositing (same size as the owning image).
    public let pixels: [UInt8]
    /// Display duration in seconds.
    public let duration: Double

    /// How long a player shows it: its duration, at least 20 ms; 100 ms when it has none (a GIF
    /// delay of 0, as browsers play it). The one rule for the gallery's players and kitty's.
    public var displayDuration: Double { Self.displayDuration(of: duration) }

    /// The display duration of a frame of `duration` seconds (`displayDuration`).
    static func displayDuration(of duration: Double) -> Double { max(0.02, duration > 0 ? duration : 0.1) }

    /// Creates a frame.
    public init(pixels: [UInt8], duration: Double) {
        self.pixels = pixels
        self.duration = duration
    }
}

/// Hands out process-unique image ids.
enum ImageIdentity {
    private static let counter = Atomic<UInt64>(0)
    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}
