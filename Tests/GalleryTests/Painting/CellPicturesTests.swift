import Foundation
import ImageCodecs
import Locking
import TerminalGraphics
import Testing
import TestSupport
@testable import Gallery

/// `CellPictures`: which cells' animations the terminal plays itself.
@Suite struct CellPicturesTests {
    /// Two frames, red then blue (built as repeated 32-bit words: a debug build joins arrays slowly).
    static func animation(width: Int, height: Int) -> Image {
        let frames = [UInt32(0xFF00_00FF), 0xFFFF_0000].map { word in  // RGBA in memory, little-endian
            ImageFrame(pixels: [UInt32](repeating: word, count: width * height).withUnsafeBytes { Array($0) }, duration: 0.05)
        }
        return Image(width: width, height: height, pixels: frames[0].pixels, frames: frames)
    }

    /// kitty plays a cell's animation when its frames fit `terminalAnimationLimit` (one upload);
    /// a longer one, and the full view's, play frame by frame in the gallery's players. A painter
    /// whose terminal does not play animations leaves every one to the players.
    @Test func theTerminalPlaysCellAnimationsThatFitOneUpload() {
        let small = Self.animation(width: 40, height: 30), large = Self.animation(width: 1024, height: 1024)
        #expect(small.cost <= CellPictures.terminalAnimationLimit && large.cost > CellPictures.terminalAnimationLimit)
        let kitty = CellPictures(painter: RendererPainter(renderer: KittyRenderer()), post: { _ in })
        let (a, b, c) = (SlotID(1), SlotID(2), SlotID(3))
        kitty.setImage(small, of: a)
        kitty.setImage(large, of: b)
        kitty.followAnimations([(a, .cell), (b, .cell)], now: 0)
        #expect(kitty.terminalPlays == [a])
        #expect(Set(kitty.animations.players.keys) == [b])
        kitty.setImage(small, of: c)
        kitty.followAnimations([(c, .fullView)], now: 0)
        #expect(kitty.terminalPlays.isEmpty && Set(kitty.animations.players.keys) == [c], "the full view plays frame by frame")
        let sixel = CellPictures(painter: RendererPainter(renderer: SixelRenderer()), post: { _ in })
        sixel.setImage(small, of: a)
        sixel.followAnimations([(a, .cell)], now: 0)
        #expect(sixel.terminalPlays.isEmpty && Set(sixel.animations.players.keys) == [a])
    }

    /// A streamed animation (`FrameStream`) holds a few frames, so its `cost` is small whatever its
    /// length: kitty plays it only when all its frames fit one upload (`Image.allFramesCost`).
    @Test func theTerminalPlaysAStreamedAnimationOnlyWhenAllItsFramesFitOneUpload() throws {
        let tight = DecodeOptions(outputByteLimit: 1 << 20)
        let long = try ImageCoders.decode(TestGIF.animation(width: 100, height: 100, frames: 300), options: tight)
        let short = try ImageCoders.decode(TestGIF.animation(width: 20, height: 20, frames: 300), options: DecodeOptions(outputByteLimit: 64 << 10))
        #expect(long.isStreamed && short.isStreamed)
        #expect(long.cost <= CellPictures.terminalAnimationLimit && long.allFramesCost > CellPictures.terminalAnimationLimit)
        #expect(short.allFramesCost <= CellPictures.terminalAnimationLimit)
        let kitty = CellPictures(painter: RendererPainter(renderer: KittyRenderer()), post: { _ in })
        let (a, b) = (SlotID(1), SlotID(2))
        kitty.setImage(long, of: a)
        kitty.setImage(short, of: b)
        kitty.followAnimations([(a, .cell), (b, .cell)], now: 0)
        #expect(kitty.terminalPlays == [b])
        #expect(Set(kitty.animations.players.keys) == [a])
        let upload = try KittyRenderer().renderAnimation(short, cells: CellSize(columns: 2, rows: 1), cellPixelSize: PixelSize(width: 10, height: 20))
        #expect(String(decoding: upload.bytes, as: UTF8.self).components(separatedBy: "a=f,").count == 300,
                "every further frame added to the upload")
    }

    /// `CellPictures` over `renderer` with `image` playing in `slot`'s cell, and the paints it posts.
    static func playing(_ image: Image, in slot: SlotID, with renderer: any ImageRenderer) -> (CellPictures, Locked<[PaintResult]>) {
        let results = Locked<[PaintResult]>([])
        let pictures = CellPictures(painter: RendererPainter(renderer: renderer), post: { r in results.withLock { $0.append(r) } })
        pictures.setImage(image, of: slot)
        pictures.followAnimations([(slot, .cell)], now: 0)
        return (pictures, results)
    }

    /// One staleness rule for stills and animation frames: a frame painted for a binding that
    /// ended is dropped, even when the slot's next binding shows the same image at the same size
    /// (before, frames carried no generation and only the image and size were checked).
    @Test func aFramePaintedForAnEndedBindingIsDropped() async throws {
        let slot = SlotID(1), image = Self.animation(width: 40, height: 30)
        let (pictures, results) = Self.playing(image, in: slot, with: HalfBlockRenderer())
        let cells = CellSize(columns: 4, rows: 2), pixels = PixelSize(width: 8, height: 16)
        _ = pictures.picture(for: slot, cells: cells, cellPixels: pixels, now: 0)
        pictures.paintAnimationFrames(cellPixels: pixels)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, results.withLock({ $0.filter { $0.frame != nil }.count }) < 2 {
            try await Task.sleep(for: .milliseconds(5))
        }
        let frames = results.withLock { $0.filter { $0.frame != nil } }
        #expect(frames.count == 2, "both frames painted")
        pictures.bindingEnded(slot)
        pictures.setImage(image, of: slot)
        pictures.followAnimations([(slot, .cell)], now: 0)
        _ = pictures.picture(for: slot, cells: cells, cellPixels: pixels, now: 0)
        pictures.paintAnimationFrames(cellPixels: pixels)  // the new player paints for the same size
        for result in frames { pictures.accept(result) }
        #expect(pictures.animations.player(of: slot)?.painted.isEmpty == true, "the old binding's frames are not shown")
        #expect(pictures.animations.paintsOut == 1, "only the new binding's frame is out (3 at once, 2 were the old one's)")
    }

    /// A cell whose animation kitty plays shows its still first (a 24-frame animation encodes in
    /// 30 ms, its still in 1 ms: a page of them waited behind each other on the paint queue), then
    /// the whole animation; meanwhile the paint invariant holds.
    @Test func aTerminalPlayedCellShowsItsStillFirst() async throws {
        let slot = SlotID(1)
        let (pictures, results) = Self.playing(Self.animation(width: 40, height: 30), in: slot, with: KittyRenderer())
        let cells = CellSize(columns: 4, rows: 2), pixels = PixelSize(width: 10, height: 20)
        func next() async throws -> PaintResult? {
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline, results.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
            return results.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
        #expect(pictures.picture(for: slot, cells: cells, cellPixels: pixels, now: 0) == nil)
        #expect(pictures.isShownOrPainting(slot, cells: cells))
        let still = try #require(try await next())
        #expect(still.key.animation == false)
        pictures.accept(still)
        let shown = pictures.picture(for: slot, cells: cells, cellPixels: pixels, now: 0)
        #expect(shown != nil && shown?.upload?.animationLoops == nil, "the still stands in")
        #expect(pictures.isShownOrPainting(slot, cells: cells))
        let whole = try #require(try await next())
        #expect(whole.key.animation)
        pictures.accept(whole)
        #expect(pictures.picture(for: slot, cells: cells, cellPixels: pixels, now: 0)?.upload?.animationLoops == 0, "then the whole animation")
    }
}
