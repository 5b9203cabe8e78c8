import Foundation
import Locking

/// A decoder positioned at an animation's next frame: each call composites that frame as the
/// format's decoder does and returns it at the target size (RGBA8 straight alpha). One per format
/// (`GIFFrameReader`, `WebPFrameReader`, `AVIFFrameReader`), the one frame loop of a decode that
/// holds the frames and of a `FrameStream`, which reopens it from the encoded bytes to go back.
protocol FrameReader: AnyObject {
    /// The next frame's pixels; nil after the last one; throws where the file is damaged.
    func next() throws -> [UInt8]?
    /// The duration in seconds of the frame `next()` returned last.
    var duration: Double { get }
    /// The format's name, for errors.
    var format: String { get }
}

extension FrameReader {
    /// The next frame (`FrameStream`): the end before it is damage too.
    func nextFrame() throws -> [UInt8] {
        guard let pixels = try next() else { throw DecodeError.truncated(format: format) }
        return pixels
    }

    /// Up to `count` frames (at least one), held: all of them when `pregrown` (the reservation
    /// holds them already), else each after the first only while it fits then (`work` pixels of
    /// each within `pixelBudget`, `memory`, and the reservation growing without waiting). A file
    /// damaged after complete frames keeps them, as browsers do; with none, its error is thrown.
    func holdFrames(count: Int, pregrown: Bool, work: Int, pixelBudget: Int, memory: OutputBudget,
                    reservation: DecodeMemory.Reservation?) throws -> [ImageFrame] {
        var frames: [ImageFrame] = []
        while frames.count < max(1, count) {
            let pixels: [UInt8]?
            do { pixels = try next() } catch {
                if frames.isEmpty { throw error }
                break
            }
            guard let pixels else { break }
            frames.append(ImageFrame(pixels: pixels, duration: duration))
            if !pregrown && ((frames.count + 1) * work > pixelBudget || !memory.allows(frames: frames.count + 1)
                || reservation?.grow(by: memory.frame) != true) { break }
        }
        guard !frames.isEmpty else { throw DecodeError.truncated(format: format) }
        return frames
    }
}

/// How an animated decode keeps its frames, the one decision for GIF, WebP and AVIF.
enum FrameHolding {
    /// Hold them. `pregrown`: the decode's reservation holds every frame already; else (a stream
    /// would exceed the whole `DecodeMemory` budget) each is held only while it fits.
    case hold(pregrown: Bool)
    /// Stream them (`FrameStream.image`) within `bytes`, reserved anew once the decode has given its
    /// own reservation back.
    case stream(bytes: Int)

    /// Whether the reservation holds every frame already (`hold(pregrown:)`).
    var pregrown: Bool { if case .hold(let pregrown) = self { pregrown } else { false } }

    /// Holds `count` frames of `frameBytes` when they all fit (`FrameStream.holdsAll`, growing
    /// `reservation` by them), else streams them within what `reservation` holds now plus the
    /// stream's file and window, when that fits `options.memory` at all.
    static func choose(count: Int, work: Int, pixelBudget: Int, memory: OutputBudget, reservation: DecodeMemory.Reservation?,
                       frameBytes: Int, encodedBytes: Int, options: DecodeOptions) -> FrameHolding {
        guard count > 1 else { return .hold(pregrown: true) }
        let reserved = reservation?.bytes ?? 0
        if let reservation, FrameStream.holdsAll(count: count, work: work, pixelBudget: pixelBudget, memory: memory, reservation: reservation) {
            return .hold(pregrown: true)
        }
        let bytes = reserved + FrameStream.byteCost(frameBytes: frameBytes, workingBytes: 0, encodedBytes: encodedBytes)
        return bytes <= options.memory.limit ? .stream(bytes: bytes) : .hold(pregrown: false)
    }
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
/// Thread-safe: a lock (`Locked`, which ThreadSanitizer sees) serialises decoding; call it off the UI
/// thread (the paint queue).
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
    private let state: Locked<State>

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
        state = Locked(State(reservation: reservation, reader: reader, next: 1))
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

extension FrameStream {
    /// The animation in `data` as a stream over a copy of it: its first frame decoded now, the rest as
    /// they are asked for, all within `bytes` reserved for as long as the image lives. `open` makes a
    /// reader at frame 0 of the copy (now, and again to go back); `workingBytes` are its canvases.
    static func image(of data: Data, durations: [Double], bytes: Int, workingBytes: Int, size: PixelSize, loopCount: Int,
                      sourceSize: PixelSize, options: DecodeOptions,
                      open: @escaping @Sendable (EncodedBytes) throws -> any FrameReader) throws -> Image {
        let reservation = try options.memory.reserve(bytes)
        let file = EncodedBytes(data)
        let reader = try open(file)
        let first = try reader.nextFrame()
        let stream = FrameStream(durations: durations, first: first, workingBytes: workingBytes, encodedBytes: data.count,
                                 reservation: reservation, reader: reader, open: { try open(file) })
        return Image(width: size.width, height: size.height, pixels: first, stream: stream, loopCount: loopCount, sourceSize: sourceSize)
    }
}
