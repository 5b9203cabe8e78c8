import ImageCodecs
import TerminalGraphics
import Testing
@testable import Gallery

/// The players of the animations on screen: frames advance when due, painted, and within the
/// terminal's byte budget, the selected cell first; paused, nothing moves.
@Suite struct CellAnimationsTests {
    /// An animation of `frames` frames of `duration` seconds, playing `loops` times (0: forever).
    static func animation(frames: Int = 3, duration: Double = 0.1, loops: Int = 0) -> Image {
        let list = (0..<frames).map { index in ImageFrame(pixels: [UInt8](repeating: UInt8(index), count: 4), duration: duration) }
        return Image(width: 1, height: 1, pixels: list[0].pixels, frames: list, loopCount: loops)
    }

    static let cells = CellSize(columns: 4, rows: 2)

    /// A sixel-like picture of `bytes` bytes.
    static func picture(_ bytes: Int) -> RenderedImage { RenderedImage(kind: .sixel, bytes: [UInt8](repeating: 0x3F, count: bytes), cells: cells) }

    /// Paints every frame asked for at once, `bytes` each.
    static func paintAll(_ animations: inout CellAnimations, bytes: Int = 1000, image: [SlotID: UInt64]) {
        while case let asked = animations.framesToPaint(), !asked.isEmpty {
            for (slot, frame, size) in asked {
                animations.finished(slot: slot, image: image[slot] ?? 0, frame: frame, cells: size, painted: picture(bytes))
            }
        }
    }

    @Test func aFrameAdvancesWhenItsTimeIsUpAndItIsPainted() {
        let image = Self.animation()
        var animations = CellAnimations(bytesPerSecond: 1 << 30)
        animations.follow([(SlotID(0), image, .cell)], now: 0)
        do { let moved = animations.tick(now: 0.2); #expect(!moved, "nothing painted yet: the still stands in") }
        animations.drawn(SlotID(0), in: Self.cells)
        Self.paintAll(&animations, image: [SlotID(0): image.id])
        do { let moved = animations.tick(now: 0.05); #expect(!moved, "not due") }
        do { let moved = animations.tick(now: 0.1); #expect(moved) }
        #expect(animations.player(of: SlotID(0))?.frame == 1)
        #expect(animations.millisecondsToNextFrame(now: 0.1) == 100)
        #expect(animations.isPlaying)
    }

    @Test func aFiniteLoopEndsOnItsLastFrame() {
        let image = Self.animation(frames: 2, loops: 2)
        var animations = CellAnimations(bytesPerSecond: 1 << 30)
        animations.follow([(SlotID(0), image, .cell)], now: 0)
        animations.drawn(SlotID(0), in: Self.cells)
        Self.paintAll(&animations, image: [SlotID(0): image.id])
        var shown: [Int] = [0]
        var now = 0.0
        for _ in 0..<10 {
            now += 0.1
            if animations.tick(now: now) { shown.append(animations.player(of: SlotID(0))?.frame ?? -1) }
            Self.paintAll(&animations, image: [SlotID(0): image.id])
        }
        #expect(shown == [0, 1, 0, 1])
        #expect(!animations.isPlaying, "two loops played: settled on the last frame")
    }

    @Test func theBudgetHoldsFramesAndTheSelectedCellGoesFirst() {
        let selected = Self.animation(), other = Self.animation()
        // Both want 1000 bytes every 0.1 s (20 kB/s in all) within 12 kB/s (a 3 kB burst).
        var animations = CellAnimations(bytesPerSecond: 12000)
        animations.follow([(SlotID(1), selected, .cell), (SlotID(0), other, .cell)], now: 0)
        animations.drawn(SlotID(0), in: Self.cells)
        animations.drawn(SlotID(1), in: Self.cells)
        let ids = [SlotID(1): selected.id, SlotID(0): other.id]
        var frames = [SlotID(0): 0, SlotID(1): 0]
        var now = 0.0
        while now < 2 {
            now += 0.005
            Self.paintAll(&animations, image: ids)
            let before = [SlotID(0): animations.player(of: SlotID(0))?.frame, SlotID(1): animations.player(of: SlotID(1))?.frame]
            _ = animations.tick(now: now)
            for slot in [SlotID(0), SlotID(1)] where animations.player(of: slot)?.frame != before[slot] { frames[slot, default: 0] += 1 }
        }
        let sent = (frames[SlotID(0)]! + frames[SlotID(1)]!) * 1000
        #expect(sent <= 3000 + 12000 * 2, "\(sent) bytes in 2 s")
        #expect(frames[SlotID(1)]! >= 18, "the selected cell plays at its speed: \(frames)")
        #expect(frames[SlotID(0)]! >= 2 && frames[SlotID(0)]! < frames[SlotID(1)]!, "the other gets what is left: \(frames)")
        #expect(animations.millisecondsToNextFrame(now: now) != nil)
    }

    @Test func textPicturesPlayEveryFrameWhateverTheBudget() {
        let image = Self.animation()
        var animations = CellAnimations(bytesPerSecond: 1)
        animations.follow([(SlotID(0), image, .cell)], now: 0)
        animations.drawn(SlotID(0), in: Self.cells)
        let text = RenderedImage(kind: .halfBlock(.truecolor), rows: [[0x41], [0x42]], cells: Self.cells)
        for _ in 0..<3 {
            for (slot, frame, size) in animations.framesToPaint() {
                animations.finished(slot: slot, image: image.id, frame: frame, cells: size, painted: text)
            }
        }
        var now = 0.0
        for expected in [1, 2, 0, 1] {
            now += 0.1
            do { let moved = animations.tick(now: now); #expect(moved) }
            #expect(animations.player(of: SlotID(0))?.frame == expected)
        }
    }

    @Test func pausedNothingMovesAndNothingIsPending() {
        let image = Self.animation()
        var animations = CellAnimations(bytesPerSecond: 1 << 30)
        animations.follow([(SlotID(0), image, .cell)], now: 0)
        animations.drawn(SlotID(0), in: Self.cells)
        Self.paintAll(&animations, image: [SlotID(0): image.id])
        animations.pausedByUser = true
        do { let moved = animations.tick(now: 5); #expect(!moved) }
        #expect(!animations.isPlaying)
        #expect(animations.millisecondsToNextFrame(now: 5) == nil)
        animations.pausedByUser = false
        animations.pausedByFocus = true
        do { let moved = animations.tick(now: 6); #expect(!moved) }
        animations.pausedByFocus = false
        do { let moved = animations.tick(now: 7); #expect(moved) }
        #expect(animations.player(of: SlotID(0))?.frame == 1, "one frame on, not a catch-up of seventy")
    }

    @Test func aCellThatLeavesStopsAndAtMostThreeFramesArePaintingAtOnce() {
        let images = (0..<4).map { _ in Self.animation() }
        var animations = CellAnimations(bytesPerSecond: 1 << 30)
        animations.follow(images.enumerated().map { (SlotID($0.offset), $0.element, .cell) }, now: 0)
        for slot in 0..<4 { animations.drawn(SlotID(slot), in: Self.cells) }
        let asked = animations.framesToPaint()
        #expect(asked.count == CellAnimations.paintsAtOnce)
        #expect(asked.allSatisfy { $0.slot == SlotID(0) }, "the first in priority order is painted first")
        animations.follow([(SlotID(3), images[3], .cell)], now: 0)
        #expect(animations.player(of: SlotID(0)) == nil)
        do { let more = animations.framesToPaint(); #expect(more.isEmpty, "the three out still count") }
        for frame in asked { animations.finished(slot: frame.slot, image: images[0].id, frame: frame.frame, cells: frame.cells, painted: nil) }
        do { let more = animations.framesToPaint(); #expect(more.count == 3) }
    }

    @Test func aKittyFrameSentOnceCostsItsPlacementAfterwards() {
        let upload = ImageUpload(id: 7, bytes: [UInt8](repeating: 0, count: 5000))
        let picture = RenderedImage(kind: .kitty, bytes: [UInt8](repeating: 0, count: 40), cells: Self.cells, upload: upload)
        #expect(AnimationPlayer.cost(of: picture, sentBefore: false) == 5040)
        #expect(AnimationPlayer.cost(of: picture, sentBefore: true) == 64)
    }
}
