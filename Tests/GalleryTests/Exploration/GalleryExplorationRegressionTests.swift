import Testing
import TerminalModel
@testable import Gallery

/// The sequences random exploration found (shrunk), each a regression test. Those still failing are
/// known issues (named after their issue); remove `withKnownIssue` when the fix lands, and the test
/// must pass.
@Suite struct GalleryExplorationRegressionTests {
    func problem(_ kind: TerminalKind, _ steps: String) throws -> String? {
        try ExplorationOracle.explore(kind, ExplorationStep.parse(steps))
    }

    /// Found by seed 8wweiUzu/nAFC8X4wGLA/6ShrHbMVZt3Ukyd+O3YHno= with the first xterm model (a reverse
    /// scroll leaving the sixels where they were). Real xterm moves the pixels and repaints the exposed
    /// band from its unmoved record once text is written below it (`TerminalModelFidelityTests`); with
    /// that model the gallery settles right here, in xterm and in mlterm.
    @Test func pagingDownRowUpAndPageUpSettle() throws {
        for kind in [TerminalKind.xterm, .mlterm] {
            #expect(try problem(kind, "PageDown k settle PageUp") == nil, "\(kind)")
            #expect(try problem(kind, "v settle PageDown settle k") == nil, "\(kind) list view")
        }
    }

    /// Found by seed APUritAZ5Gc34nrJXwFuVHIbS+OFSCHSFvNwgL2qMKo= (shrunk from 21 steps): one item row up
    /// after a page down. The frame scrolled the screen back (`CSI 4 T`), wrote the exposed band's
    /// text, then the status bar below it: xterm repaints the band from its unmoved record, so the
    /// images that were on the top row before came back there, around the new, differently sized ones.
    /// Fixed (issue 23 #2): xterm's sixel never scrolls back (`scrollsBackWithText`), it repaints.
    @Test func xtermRowUpAfterPageDownBringsBackTheOldTopRow() throws {
        let steps = "settle PageDown settle k"
        let found = try problem(.xterm, steps)
        #expect(found == nil, "xterm after [\(steps)]: \(found ?? "")")
        #expect(try problem(.mlterm, steps) == nil, "mlterm moves its record: the same keys settle right")
    }

    /// Found by seed f5Z3ldYmZV8kphDBsuHuut8qi5jhjKcbp9eQ1WQV/ss=: images evicted from the encoded
    /// output cache are freed with `d=I`, which in kitty 0.26 also frees every image without a
    /// placement; coming back placed them without uploading: ENOENT, blank cells (fixed on main by
    /// the time of the merge: both sequences settle right now).
    @Test func kittyReplacesImagesFreedByAnotherImagesDelete() throws {
        let steps = "G settle g settle v PageDown v"
        let found = try problem(.kitty, steps)
        #expect(found == nil, "kitty after [\(steps)]: \(found ?? "")")
    }

    /// The paging form of the same defect: three screens down, two up, loads settled between.
    @Test func kittyPagingBackAfterEvictionsShowsBlankCells() throws {
        let steps = "PageDown settle PageDown settle PageDown settle PageUp settle PageUp settle"
        let found = try problem(.kitty, steps)
        #expect(found == nil, "kitty after [\(steps)]: \(found ?? "")")
        #expect(try problem(.tmux, steps) == nil, "half-blocks have no uploads: the same keys settle right")
    }

    /// Found by the first exploration of tmux 3.5a in kitty 0.41 (Unicode placeholders, issue 29):
    /// an image evicted from the encoded output cache is freed with `d=I`; its placement was dropped
    /// without clearing its cells, and placeholders are text: they stayed on screen in the list view
    /// (and would show the image again wherever its id is uploaded next). Their cells are cleared now.
    @Test func placeholderPicturesFreedByTheCacheLeaveNoText() throws {
        let steps = "j settle j v"
        let found = try problem(.tmuxKitty, steps)
        #expect(found == nil, "tmuxKitty after [\(steps)]: \(found ?? "")")
        #expect(try problem(.kitty, steps) == nil, "direct placements are deleted with their image")
    }

    /// Found by seed XgQVxr8myCZR5uL5G08eaBS69ntfjjq/b/jURcWg5+E= (kitty plays cells' animations, issue
    /// 32): a cell whose animation kitty plays shows its still until the animation is painted, and
    /// asked for the animation only on the frame after the still came back from the paint queue. A
    /// still encoded ahead was ready at once, so nothing asked again: the loop settled on the still,
    /// and Ctrl-L showed the animation. The animation is asked for with a still that was ready.
    @Test func kittyAsksForTheAnimationWhenItsStillWasEncodedAhead() throws {
        let steps = "settle v a settle PageDown"
        let found = try problem(.kitty, steps)
        #expect(found == nil, "kitty after [\(steps)]: \(found ?? "")")
    }
}
