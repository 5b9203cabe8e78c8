import Synchronization

/// A decoded bitmap: 8-bit RGBA, **straight (non-premultiplied) alpha**, rows top to bottom,
/// `width * 4` bytes per row, no padding. Knows nothing of networks or terminals.
///
/// Animated images carry every frame in `frames` (each already composited to the full canvas);
/// `pixels` is then the first frame's pixels.
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
    /// Animation frames (empty for a still image).
    public let frames: [ImageFrame]
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

    private init(id: UInt64, width: Int, height: Int, pixels: [UInt8], frames: [ImageFrame], loopCount: Int, sourceSize: PixelSize?) {
        self.id = id
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
    /// are never made; frames stop at `DecodeOptions.maxFrames`).
    public func frameImage(_ index: Int) -> Image {
        guard isAnimated, index >= 0, index < frames.count, index < 1 << 23 else { return self }
        return Image(id: id &+ (UInt64(index + 1) << 40), width: width, height: height, pixels: frames[index].pixels,
                     frames: [], loopCount: 0, sourceSize: sourceSize)
    }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frames.count > 1 }

    /// Memory cost in bytes of every pixel buffer this image holds (used by cost-bounded caches).
    public var cost: Int {
        pixels.count + (frames.count > 1 ? frames.reduce(0) { $0 + $1.pixels.count } : 0)
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
    public var displayDuration: Double { max(0.02, duration > 0 ? duration : 0.1) }

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
