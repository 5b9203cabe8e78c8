import Synchronization

/// A decoder positioned at an animation's next frame: each call composites that frame as the
/// format's decoder does and returns it at the target size (RGBA8 straight alpha). One per format;
/// `FrameStream` reopens it from the encoded bytes to go back.
protocol FrameReader: AnyObject {
    /// The next frame's pixels; throws when the file is damaged there.
    func nextFrame() throws -> [UInt8]
}

/// An animation's frames decoded as they are asked for, for an animation whose frames do not all fit
/// its budget (`OutputBudget`, `DecodeMemory`): it keeps the encoded file, a reader positioned at the
/// next frame with its working canvases, and the last few frames decoded (`windowFrames`). A frame
/// ahead is decoded forward from the reader's position; an earlier one (a loop restarting) reopens
/// the reader and decodes forward again. Its memory is reserved from `DecodeMemory` for as long as
/// the stream lives (its `Image`, in a cache or a player).
///
/// Frame count and durations come from a scan of the file before any frame is decoded. A frame that
/// fails to decode (the file damaged after frame n) ends the stream: it and every later frame show
/// the last good frame; the count stays, so a player's schedule does not change under it.
///
/// Thread-safe: a mutex serialises decoding; call it off the UI thread (the paint queue).
public final class FrameStream: Sendable {
    /// Each frame's duration in seconds, as the file gives it.
    let durations: [Double]
    /// Bytes of one frame's pixels at the target size.
    let frameBytes: Int
    /// Bytes the stream holds: the encoded file, the reader's working canvases and the window.
    let byteCost: Int
    /// Most recently decoded frames kept.
    let windowFrames: Int

    private struct State {
        let reservation: DecodeMemory.Reservation
        var reader: (any FrameReader)?
        /// The index `reader` decodes next.
        var next = 0
        var window: [(index: Int, pixels: [UInt8])] = []
        /// The first frame that failed to decode: it and later frames show the one before.
        var failedAt: Int?
    }

    private let first: [UInt8]
    private let open: @Sendable () throws -> any FrameReader
    private let state: Mutex<State>

    /// Most bytes of decoded frames a stream keeps besides the first (at least one frame).
    static let windowBytes = 24 << 20

    /// Frames kept in the window for frames of `frameBytes`: three, fewer when large, at least one.
    static func windowFrames(frameBytes: Int) -> Int { max(1, min(3, windowBytes / max(1, frameBytes))) }

    /// A stream of the frames `durations` describe, whose first frame is `first`, decoded by `reader`
    /// (positioned after it); `open` makes a reader at frame 0 again (from the bytes it captures).
    /// `reservation` holds `byteCost` bytes and the first frame's for as long as the stream lives.
    init(durations: [Double], first: [UInt8], workingBytes: Int, encodedBytes: Int,
         reservation: sending DecodeMemory.Reservation, reader: sending any FrameReader,
         open: @escaping @Sendable () throws -> any FrameReader) {
        self.durations = durations
        self.first = first
        self.frameBytes = first.count
        self.windowFrames = Self.windowFrames(frameBytes: first.count)
        self.byteCost = Self.byteCost(frameBytes: first.count, workingBytes: workingBytes, encodedBytes: encodedBytes)
        self.open = open
        reservation.keepAfterDecode()
        state = Mutex(State(reservation: reservation, reader: reader, next: 1))
    }

    /// What a stream of frames of `frameBytes` holds besides its first frame: its reader's working
    /// bytes, the encoded file and a full window.
    static func byteCost(frameBytes: Int, workingBytes: Int, encodedBytes: Int) -> Int {
        workingBytes + encodedBytes + windowFrames(frameBytes: frameBytes) * frameBytes
    }

    /// Whether an animation of `count` frames (`work` pixels composited and scaled each) is held
    /// whole: its frames' work stays within `pixelBudget`, its frames fit `memory`
    /// (`outputByteLimit`, `maxFrames`, `frameByteLimit`), and `reservation`, holding the canvases
    /// and the first frame, grows by the others now (never waiting). Else it is streamed.
    static func holdsAll(count: Int, work: Int, pixelBudget: Int, memory: OutputBudget, reservation: DecodeMemory.Reservation) -> Bool {
        guard count > 1 else { return true }
        let (pixels, overPixels) = count.multipliedReportingOverflow(by: work)
        let (rest, overBytes) = (count - 1).multipliedReportingOverflow(by: memory.frame)
        return !overPixels && pixels <= pixelBudget && memory.allows(frames: count) && !overBytes && reservation.grow(by: rest)
    }

    /// How many frames the animation has.
    var frameCount: Int { durations.count }

    /// Bytes held by the stream's reservation (tests).
    var reservedBytes: Int { state.withLock { $0.reservation.bytes } }

    /// Frame `index`'s pixels, decoded now when it is not among the last few decoded. Nil for an
    /// index out of range, or when the file cannot be opened again (it decoded before: not expected).
    func pixels(of index: Int) -> [UInt8]? {
        guard index >= 0, index < durations.count else { return nil }
        return state.withLock { s -> [UInt8]? in
            let index = s.failedAt.map { min(index, $0 - 1) } ?? index
            if index == 0 { return first }
            if let kept = s.window.first(where: { $0.index == index }) { return kept.pixels }
            if s.reader == nil || s.next > index {
                s.window.removeAll()
                s.next = 0
                s.reader = try? open()
            }
            guard let reader = s.reader else { return nil }
            var last: [UInt8]?
            while s.next <= index {
                guard let pixels = try? reader.nextFrame() else {
                    // Damaged here: this frame and every later one show the one before.
                    s.failedAt = max(1, s.next)
                    s.reader = nil
                    return s.next <= 1 ? first : last ?? s.window.last?.pixels
                }
                s.next += 1
                last = pixels
                if s.next - 1 + windowFrames > index {
                    s.window.append((s.next - 1, pixels))
                    if s.window.count > windowFrames { s.window.removeFirst() }
                }
            }
            return last
        }
    }
}
