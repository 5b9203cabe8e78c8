import ImageCodecs
import TerminalGraphics
import Testing
@testable import Gallery

/// `CellPictures`: which cells' animations the terminal plays itself.
@Suite struct CellPicturesTests {
    static func animation(width: Int, height: Int) -> Image {
        let frames = [[255, 0, 0, 255], [0, 0, 255, 255]].map { c in
            ImageFrame(pixels: Array((0..<(width * height)).map { _ in c.map(UInt8.init) }.joined()), duration: 0.05)
        }
        return Image(width: width, height: height, pixels: frames[0].pixels, frames: frames)
    }

    /// kitty plays a cell's animation when its frames fit `terminalAnimationLimit` (one upload);
    /// a longer one, and the full view's, play frame by frame in the gallery's players. A painter
    /// whose terminal does not play animations leaves every one to the players.
    @Test func theTerminalPlaysCellAnimationsThatFitOneUpload() {
        let small = Self.animation(width: 40, height: 30), large = Self.animation(width: 1600, height: 1400)
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
}
