import SafeText

/// A text drawing for a cell rectangle while an image loads: exactly `size.rows` lines, each exactly
/// `size.columns` characters of display width 1. Pure data, cheap to build; the gallery writes the
/// lines with curses.
///
/// ```swift
/// CellDrawing.progress(0.42, size: CellSize(columns: 16, rows: 5)).lines
/// // ["                ", "                ", "[█████░░░░░] 42%", …]
/// ```
public struct CellDrawing: Sendable, Hashable {
    /// What the drawing shows.
    public enum Kind: Sendable, Hashable {
        /// Nothing loaded yet.
        case placeholder
        /// Loading, with a fraction 0…1.
        case progress(Double)
        /// Loading failed, with a short message.
        case error(String)
    }

    /// What the drawing shows.
    public var kind: Kind
    /// The rectangle.
    public var size: CellSize
    /// The text lines (`size.rows` of them, each `size.columns` wide).
    public var lines: [String]

    /// A dotted frame with a centred "…" (plain spaces when the rectangle is tiny).
    public static func placeholder(size: CellSize) -> CellDrawing {
        var lines = blank(size)
        if size.columns >= 3 && size.rows >= 3 {
            let inner = String(repeating: "┄", count: size.columns - 2)
            lines[0] = "┌" + inner + "┐"
            lines[size.rows - 1] = "└" + inner + "┘"
            for row in 1..<(size.rows - 1) { lines[row] = "┆" + String(repeating: " ", count: size.columns - 2) + "┆" }
        }
        if size.rows > 0 { lines[size.rows / 2] = overlay(lines[size.rows / 2], "…", width: size.columns) }
        return CellDrawing(kind: .placeholder, size: size, lines: lines)
    }

    /// A bar with a percentage on the middle row, e.g. `[█████░░░░░] 42%` (just "42%" when narrow).
    public static func progress(_ fraction: Double, size: CellSize) -> CellDrawing {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let percent = "\(Int((clamped * 100).rounded(.down)))%"
        var lines = blank(size)
        guard size.rows > 0 else { return CellDrawing(kind: .progress(clamped), size: size, lines: lines) }
        let barWidth = size.columns - percent.count - 3
        var text = percent
        if barWidth >= 3 {
            let filled = Int((Double(barWidth) * clamped).rounded(.down))
            text = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "] " + percent
        }
        lines[size.rows / 2] = overlay(lines[size.rows / 2], text, width: size.columns)
        return CellDrawing(kind: .progress(clamped), size: size, lines: lines)
    }

    /// "✗ message", sanitized, word-wrapped over the rows and truncated with "…".
    public static func error(_ message: String, size: CellSize) -> CellDrawing {
        let clean = UntrustedText.strip(message)
        var lines = blank(size)
        guard size.columns > 0, size.rows > 0 else { return CellDrawing(kind: .error(clean), size: size, lines: lines) }
        var wrapped: [String] = []
        var current = "✗"
        for word in clean.split(separator: " ") {
            var word = Substring(word)
            while !word.isEmpty {
                let room = size.columns - current.count - (current.isEmpty ? 0 : 1)
                if word.count <= room {
                    current += (current.isEmpty ? "" : " ") + word
                    word = ""
                } else if current.isEmpty {
                    current = String(word.prefix(size.columns))
                    word = word.dropFirst(size.columns)
                } else {
                    wrapped.append(current)
                    current = ""
                }
            }
        }
        if !current.isEmpty { wrapped.append(current) }
        if wrapped.count > size.rows {
            wrapped = Array(wrapped.prefix(size.rows))
            let last = wrapped[size.rows - 1]
            wrapped[size.rows - 1] = String(last.prefix(size.columns - 1)) + "…"
        }
        let top = (size.rows - wrapped.count) / 2
        for (index, line) in wrapped.enumerated() { lines[top + index] = overlay(lines[top + index], line, width: size.columns) }
        return CellDrawing(kind: .error(clean), size: size, lines: lines)
    }

    static func blank(_ size: CellSize) -> [String] {
        Array(repeating: String(repeating: " ", count: size.columns), count: size.rows)
    }

    /// `text` centred over `line`, cut to `width` characters.
    static func overlay(_ line: String, _ text: String, width: Int) -> String {
        let text = String(text.prefix(width))
        let start = (width - text.count) / 2
        let chars = Array(line)
        return String(chars.prefix(start)) + text + String(chars.dropFirst(start + text.count))
    }
}
