import ImageCodecs
import Testing
@testable import Gallery
import TerminalGraphics

@Suite struct SlotBinderTests {
    @Test func firstReconcileBindsTheScreenNearestTheSelectionFirstAndPrefetchesTheNext() {
        var model = makeModel(count: 100)
        let diff = model.reconcile()
        #expect(diff.cancels.isEmpty)
        #expect(diff.binds.count == 18)
        #expect(diff.binds.first?.index == 0)
        #expect(Set(diff.binds.map(\.index)) == Set(0..<18))
        #expect(Set(diff.binds.map(\.slot.rawValue)) == Set(0..<18))
        #expect(diff.binds.allSatisfy { $0.target == PixelSize(width: 200, height: 144) })
        #expect(diff.prefetchStarts.map(\.index) == Array(18..<36))
        #expect(model.reconcile().isEmpty)
    }

    @Test func scrollingOneRowCancelsOnlyTheRowThatLeftAndReusesItsSlots() {
        var model = makeModel(count: 100)
        let first = model.reconcile()
        let slotsOfRow0 = Set(first.binds.filter { $0.index < 6 }.map(\.slot))
        _ = model.perform(.scroll(1))
        let diff = model.reconcile()
        #expect(Set(diff.cancels.map(\.index)) == Set(0..<6))
        #expect(Set(diff.binds.map(\.index)) == Set(18..<24))
        #expect(Set(diff.binds.map(\.slot)) == slotsOfRow0)
        // 18..<24 were being prefetched: not cancelled (the visible binds join their transfers).
        #expect(diff.prefetchCancels.isEmpty)
        #expect(diff.prefetchStarts.map(\.index) == Array(36..<42))
        // The reused slots now show the new items (the source's slot drops the old loads' updates).
        for cancelled in diff.cancels { #expect(model.binding(of: cancelled.slot)?.index != cancelled.index) }
        for bound in diff.binds { #expect(model.binding(of: bound.slot) == bound) }
    }

    @Test func pagingAwayCancelsTheWholeScreenAndTheOldPrefetch() {
        var model = makeModel(count: 200)
        _ = model.reconcile()
        _ = model.perform(.end)
        let diff = model.reconcile()
        #expect(diff.cancels.count == 18)
        #expect(Set(diff.prefetchCancels.map(\.index)) == Set(18..<36))
        #expect(Set(diff.binds.map(\.index)) == Set(model.visibleIndices))
        #expect(diff.binds.first?.index == 199)  // the selection loads first
        #expect(diff.prefetchStarts.isEmpty)  // nothing after the end
    }

    @Test func reversingDirectionCancelsThePrefetchAheadAndPrefetchesBehind() {
        var model = makeModel(count: 200)
        _ = model.reconcile()
        _ = model.perform(.pageDown); _ = model.reconcile()
        _ = model.perform(.pageDown)
        let forward = model.reconcile()
        #expect(model.direction == .forward)
        #expect(forward.prefetchStarts.map(\.index) == Array(54..<72))
        _ = model.perform(.scroll(-1))
        let back = model.reconcile()
        #expect(model.direction == .backward)
        #expect(Set(back.prefetchCancels.map(\.index)) == Set(54..<72))
        #expect(back.prefetchStarts.map(\.index) == Array((12..<30).reversed()))
        #expect(Set(back.binds.map(\.index)) == Set(30..<36))
        #expect(Set(back.cancels.map(\.index)) == Set(48..<54))
    }

    @Test func cancelledUnsettledItemsGoBackToPlaceholderButFinalOnesStay() {
        var model = makeModel(count: 100)
        _ = model.reconcile()
        model.setState(.progress(received: 10, expected: 100), of: 0)
        model.setState(.final, of: 1)
        _ = model.perform(.pageDown)
        _ = model.reconcile()
        #expect(model.items[0].state == .placeholder)
        #expect(model.items[1].state == .final)
    }

    @Test func resizeRebindsAtTheNewTargetSize() {
        var model = makeModel(count: 100)
        _ = model.reconcile()
        model.resize(terminal: CellSize(columns: 80, rows: 24))
        let diff = model.reconcile()
        #expect(diff.cancels.count == 18)
        #expect(!diff.binds.isEmpty)
        #expect(diff.binds.allSatisfy { $0.target != PixelSize(width: 200, height: 144) })
        #expect(Set(diff.binds.map(\.slot)).isSubset(of: Set((0..<18).map(SlotID.init))))
    }

    @Test func fullViewBindsOneLargeSlotAndPrefetchesTheNextImage() {
        var model = makeModel(count: 10)
        _ = model.reconcile()
        _ = model.perform(.right)
        _ = model.perform(.open)
        let diff = model.reconcile()
        #expect(diff.cancels.count == 10)
        #expect(diff.binds.map(\.index) == [1])
        #expect(diff.binds.first?.target == PixelSize(width: 160 * 8, height: 34 * 16))
        #expect(diff.prefetchStarts.map(\.index) == [2])
        _ = model.perform(.previous)
        let back = model.reconcile()
        #expect(back.binds.map(\.index) == [0])
        #expect(back.prefetchCancels.map(\.index) == [2])
        #expect(back.prefetchStarts.isEmpty)
    }

    @Test func refreshReloadsTheSelectedSlotOrEveryVisibleOne() {
        var model = makeModel(count: 100)
        let first = model.reconcile()
        let old = first.binds.first { $0.index == 0 }!
        let outcome = model.perform(.refresh)
        #expect(outcome.refresh.count == 1)
        #expect(outcome.refresh[0].slot == old.slot)
        #expect(outcome.refresh[0] == old)
        #expect(model.perform(.refreshVisible).refresh.count == 18)
    }

    @Test func thousandsOfRandomMovesKeepBindingsExactlyTheVisibleSet() {
        var model = makeModel(count: 777)
        var generator = SystemRandomNumberGenerator()
        let actions: [GalleryAction] = [.up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .scroll(3), .scroll(-2), .toggleView]
        var live: [SlotID: SlotBinding] = [:]
        for step in 0..<2000 {
            _ = model.perform(actions.randomElement(using: &generator)!)
            if step % 97 == 0 { model.resize(terminal: CellSize(columns: Int.random(in: 5...300), rows: Int.random(in: 3...120))) }
            let diff = model.reconcile()
            for c in diff.cancels { #expect(live.removeValue(forKey: c.slot) == c) }
            for b in diff.binds { #expect(live[b.slot] == nil); live[b.slot] = b }
            #expect(Set(live.values.map(\.index)) == Set(model.visibleIndices))
            #expect(Set(live.values.map(\.slot)) == Set(model.bindings.map(\.slot)))
        }
    }
}
