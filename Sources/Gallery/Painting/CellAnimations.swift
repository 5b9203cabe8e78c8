import ImageCodecs
import TerminalGraphics

/// Every animation playing on screen: one `AnimationPlayer` per visible slot whose image is
/// animated (the full view's, and with `--animate` each grid or list cell's), ticked within a
/// budget of bytes per second to the terminal: the selected cell first (the others leave room for
/// its next frame), then the others, the most overdue first. A frame whose bytes the budget cannot
/// take yet waits (its animation slows down) instead of filling the terminal's input ahead of the
/// next key's frame (a token bucket of a quarter second's bytes). Text pictures cost nothing: they
/// play every frame. Paused (the `a` key, or the window lost focus), nothing advances.
struct CellAnimations {
    /// Bytes per second the frames may send (`--animate=N`).
    var bytesPerSecond: Int
    /// The players, by slot.
    private(set) var players: [SlotID: AnimationPlayer] = [:]
    /// Slots in order of priority (the selected one first), as `follow` last gave them.
    private var order: [SlotID] = []
    /// The byte budget: bytes that may still be sent now, at most a quarter second's; negative while
    /// a frame bigger than that is being paid back.
    private var credit = 0.0
    private var creditAt: Double?
    /// Paused by the user (`a`).
    var pausedByUser = false
    /// Paused because the window lost focus.
    var pausedByFocus = false
    /// Most animation frames out on the paint queue at once: the cells' own pictures never wait
    /// behind more than this many frames.
    static let paintsAtOnce = 3
    /// Frames out on the paint queue.
    private(set) var paintsOut = 0
    /// The rectangle each player's cell was last drawn in (its frames are painted for it).
    private var cells: [SlotID: CellSize] = [:]

    var isPaused: Bool { pausedByUser || pausedByFocus }

    /// Creates the set with a budget.
    init(bytesPerSecond: Int) { self.bytesPerSecond = bytesPerSecond }

    /// Plays `playing` (slot, animated image, ring), in priority order; every other player stops.
    mutating func follow(_ playing: [(slot: SlotID, image: Image, ring: AnimationPlayer.Ring)], now: Double) {
        var kept: [SlotID: AnimationPlayer] = [:]
        for (slot, image, ring) in playing where image.isAnimated {
            if let player = players[slot], player.imageID == image.id {
                kept[slot] = player
            } else {
                kept[slot] = AnimationPlayer(image: image, now: now, ring: ring)
            }
        }
        players = kept
        order = playing.map(\.slot).filter { kept[$0] != nil }
        cells = cells.filter { kept[$0.key] != nil }
    }

    /// Stops `slot`'s player at once (its binding ended); a frame of it still out is dropped.
    mutating func stop(_ slot: SlotID) {
        players[slot] = nil
        order.removeAll { $0 == slot }
        cells[slot] = nil
    }

    /// The player of `slot`, if it plays.
    func player(of slot: SlotID) -> AnimationPlayer? { players[slot] }

    /// Advances every player whose frame is due, painted, and affordable, in priority order; true
    /// when a frame changed.
    mutating func tick(now: Double) -> Bool {
        refill(now: now)
        guard !isPaused else { return false }
        var changed = false
        let due = order.filter { players[$0].map { $0.isDue(now: now) && $0.nextPicture != nil } ?? false }
        let first = due.first == order.first ? Array(due.prefix(1)) : []
        let rest = due.dropFirst(first.count).sorted { (players[$0]?.deadline ?? 0) < (players[$1]?.deadline ?? 0) }
        for slot in first + rest {
            guard var player = players[slot] else { continue }
            let cost = player.nextCost
            if credit < required(slot) { continue }
            credit -= Double(cost)
            player.advance(now: now)
            players[slot] = player
            changed = true
        }
        return changed
    }

    /// The most the budget holds: a quarter second's bytes.
    private var burst: Double { Double(bytesPerSecond) / 4 }

    /// The credit a frame of `cost` bytes waits for: its bytes, or a full budget for a bigger one.
    private func needed(_ cost: Int) -> Double { cost == 0 ? -.infinity : min(Double(cost), burst) }

    /// The credit `slot`'s next frame waits for: the others also leave room for the selected
    /// cell's next frame.
    private func required(_ slot: SlotID) -> Double {
        let own = needed(players[slot]?.nextCost ?? 0)
        guard own > -.infinity, let first = order.first, first != slot, let selected = players[first], selected.deadline != nil else { return own }
        return min(burst, own + max(0, needed(selected.nextCost)))
    }

    private mutating func refill(now: Double) {
        if let since = creditAt { credit = min(burst, credit + (now - since) * Double(bytesPerSecond)) } else { credit = burst }
        creditAt = now
    }

    /// Milliseconds until a frame may change (for the poll timeout); nil when nothing plays or all
    /// is paused. A due frame waiting for its paint wakes the loop through the paint's event.
    func millisecondsToNextFrame(now: Double) -> Int32? {
        guard !isPaused else { return nil }
        var soonest: Double?
        for (slot, player) in players {
            guard let deadline = player.deadline else { continue }
            var at = deadline
            if player.isDue(now: now), player.nextPicture != nil, credit < required(slot) {
                // When the budget has room (the credit is as of the last tick).
                at = (creditAt ?? now) + (required(slot) - credit) / Double(max(1, bytesPerSecond))
            } else if player.isDue(now: now), player.nextPicture == nil {
                continue  // its paint's result wakes the loop
            }
            soonest = min(soonest ?? at, at)
        }
        return soonest.map { Int32(max(0, min(1000, ($0 - now) * 1000)).rounded(.up)) }
    }

    /// Whether an animation is playing (the loop is not settled meanwhile).
    var isPlaying: Bool { !isPaused && players.values.contains { $0.deadline != nil } }

    /// The slot's cell is drawn in `size`: its frames are painted for that rectangle.
    mutating func drawn(_ slot: SlotID, in size: CellSize) {
        guard players[slot] != nil else { return }
        cells[slot] = size
    }

    /// The frames to paint now, at most `paintsAtOnce` out at a time, for players in priority
    /// order, each for the rectangle its cell was last drawn in.
    mutating func framesToPaint() -> [(slot: SlotID, frame: Int, cells: CellSize)] {
        var out: [(slot: SlotID, frame: Int, cells: CellSize)] = []
        for slot in order {
            guard paintsOut < Self.paintsAtOnce, var player = players[slot], let size = cells[slot] else { continue }
            player.paint(for: size)
            for frame in player.framesToPaint(limit: Self.paintsAtOnce - paintsOut) {
                out.append((slot, frame, size))
                paintsOut += 1
            }
            players[slot] = player
        }
        return out
    }

    /// A frame came back from the paint queue.
    mutating func finished(slot: SlotID, image: UInt64, frame: Int, cells: CellSize, painted: RenderedImage?) {
        paintsOut = max(0, paintsOut - 1)
        guard var player = players[slot], player.imageID == image else { return }
        player.finished(frame, cells: cells, painted: painted)
        players[slot] = player
    }

    /// Forgets every painted frame (the cell size or the terminal changed).
    mutating func forgetPictures() {
        for slot in players.keys { players[slot]?.paint(for: nil) }
        cells.removeAll()
    }
}
