/// The bytes of pixels one animated decode may hold (`DecodeOptions.outputByteLimit`): its working
/// canvases, allocated once, plus every frame kept at the target size, each with what holding it
/// costs besides its pixels (`frameOverhead`); and at most `maxFrames` frames, holding at most
/// `frameLimit` bytes (`DecodeOptions.frameByteLimit`: a grid cell's thumbnail keeps fewer). An
/// animation whose frames it does not allow all at once is streamed (`FrameStream.holdsAll`).
struct OutputBudget {
    /// Most bytes in all.
    let limit: Int
    /// Bytes of the working canvases (RGBA, every copy the decoder keeps).
    let working: Int
    /// Bytes of one frame kept: its pixels and `frameOverhead`.
    let frame: Int
    /// Most frames kept (`DecodeOptions.maxFrames`).
    let maxFrames: Int
    /// Most bytes of frames kept, working canvases apart (`DecodeOptions.frameByteLimit`).
    let frameLimit: Int

    /// What a kept frame costs besides its pixels: its pixel array's header and heap block, its
    /// place in the frame list and the player's list of durations. A GIF of a million one-pixel
    /// frames held 116 MB of them when only the 4 bytes of pixels were counted.
    static let frameOverhead = 96

    /// A budget of `limit` bytes for `working` bytes of canvases and frames of `framePixelBytes`.
    init(limit: Int, working: Int, framePixelBytes: Int, maxFrames: Int = .max, frameLimit: Int = .max) {
        self.limit = limit
        self.frameLimit = frameLimit
        self.working = working
        self.frame = framePixelBytes.addingReportingOverflow(Self.frameOverhead).overflow ? .max : framePixelBytes + Self.frameOverhead
        self.maxFrames = maxFrames
    }

    /// Whether `frames` kept frames fit next to the working canvases.
    func allows(frames: Int) -> Bool {
        let (kept, over) = frames.multipliedReportingOverflow(by: frame)
        return frames <= maxFrames && !over && working <= limit && kept <= limit - working && (frames <= 1 || kept <= frameLimit)
    }

    /// The budget `options` give a decode of `working` bytes of canvases and frames of `framePixelBytes`.
    init(_ options: DecodeOptions, working: Int, framePixelBytes: Int) {
        self.init(limit: options.outputByteLimit, working: working, framePixelBytes: framePixelBytes,
                  maxFrames: options.maxFrames, frameLimit: options.frameByteLimit)
    }
}
