/// The one writer of image bytes to the terminal. Curses draws the text of a frame; then this writer
/// emits the image placements that are new, changed, or were overwritten by text: save cursor, move,
/// write, restore, all inside synchronized output (`CSI ?2026h … CSI ?2026l`) when the terminal
/// supports it. Never on the last row (a sixel there would scroll the screen). Pure: it returns bytes
/// and a plan; the screen does the I/O.
public struct FrameWriter: Sendable {
    /// What to do for one frame.
    public struct Plan: Sendable, Hashable {
        /// Rows the terminal must rewrite from the text grid because an image left them (curses
        /// `wredrawln`): the text layer does not know the image was there.
        public var staleRows: [Int] = []
        /// Placements to write after the text, in order.
        public var emit: [BitmapPlacement] = []
    }

    /// Wrap frames in synchronized-output mode 2026.
    public var synchronizedOutput: Bool
    /// The placements currently on the terminal.
    public private(set) var shown: [BitmapPlacement] = []

    /// Creates a writer.
    public init(synchronizedOutput: Bool = false) {
        self.synchronizedOutput = synchronizedOutput
    }

    /// Plans the next frame. `changedCells` tells whether the text grid changed inside a rectangle
    /// since the previous frame (text written there erases an image).
    public mutating func plan(_ next: [BitmapPlacement], terminal: TermSize, repaintAll: Bool,
                              changedCells: (CellRect) -> Bool) -> Plan {
        let usable = next.filter { p in
            !p.rect.isEmpty && p.rect.column >= 0 && p.rect.row >= 0
                && p.rect.maxRow <= terminal.rows - 1 && p.rect.maxColumn <= terminal.columns
        }
        var plan = Plan()
        var stale = Set<Int>()
        for old in shown where !usable.contains(old) && !usable.contains(where: { $0.rect.covers(old.rect) }) {
            // The image left (or shrank): the text layer must rewrite its rows.
            for row in old.rect.row..<old.rect.maxRow { stale.insert(row) }
        }
        plan.staleRows = stale.sorted()
        for placement in usable {
            let rows = placement.rect.row..<placement.rect.maxRow
            if repaintAll || !shown.contains(placement) || rows.contains(where: stale.contains) || changedCells(placement.rect) {
                plan.emit.append(placement)
            }
        }
        shown = usable
        return plan
    }

    /// Forgets what is on the terminal (after a clear).
    public mutating func reset() { shown = [] }

    /// Bytes that start a frame (synchronized output on).
    public var frameStart: [UInt8] { synchronizedOutput ? Array("\u{1B}[?2026h".utf8) : [] }
    /// Bytes that end a frame (synchronized output off).
    public var frameEnd: [UInt8] { synchronizedOutput ? Array("\u{1B}[?2026l".utf8) : [] }

    /// The bytes that write `placements`: save cursor, for each: move and write (text kinds row by
    /// row), reset attributes, restore cursor. Empty when there is nothing to write.
    public static func bytes(for placements: [BitmapPlacement]) -> [UInt8] {
        guard !placements.isEmpty else { return [] }
        var out: [UInt8] = Array("\u{1B}7".utf8)
        for placement in placements {
            if placement.image.rows.isEmpty {
                out += cursorPosition(row: placement.rect.row, column: placement.rect.column)
                out += placement.image.bytes
            } else {
                for (offset, line) in placement.image.rows.enumerated() where offset < placement.rect.rows {
                    out += cursorPosition(row: placement.rect.row + offset, column: placement.rect.column)
                    out += line
                }
            }
            out += Array("\u{1B}[0m".utf8)
        }
        out += Array("\u{1B}8".utf8)
        return out
    }

    /// `CSI row;col H` for a 0-based position.
    public static func cursorPosition(row: Int, column: Int) -> [UInt8] {
        Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
    }
}
