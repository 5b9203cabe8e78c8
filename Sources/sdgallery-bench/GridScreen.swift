import Foundation

/// What the gallery's grid shows: the items whose captions are on screen (titles `N.jpg`) and
/// whether every one of them is final (details starting with `W×H`) or failed.
struct GridScreen {
    var visible: [Int] = []
    var settled = 0
    var complete: Bool { !visible.isEmpty && settled == visible.count }
}

extension GridScreen {
    /// Reads the grid from a capture: a title line holds `N.jpg` tokens; the line under it, at the
    /// same columns, holds each cell's details.
    static func parse(_ text: String) -> GridScreen {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        var screen = GridScreen()
        for (row, line) in lines.enumerated() where row + 1 < lines.count {
            let tokens = titleTokens(line)
            guard !tokens.isEmpty else { continue }
            let details = lines[row + 1]
            for (index, (start, end)) in tokens.enumerated() {
                screen.visible.append(Int(String(String.UnicodeScalarView(line[start..<end]).prefix { ("0"..."9").contains($0) })) ?? -1)
                let stop = index + 1 < tokens.count ? tokens[index + 1].0 : details.count
                let cell = start < details.count ? String(String.UnicodeScalarView(details[start..<min(stop, details.count)])) : ""
                let text = cell.trimmingCharacters(in: .whitespaces)
                let pending = text.isEmpty || text.hasPrefix("waiting") || text.contains("loading") || text.contains("%")
                    || text.range(of: #"^\d+ (B|KB|MB)$"#, options: .regularExpression) != nil
                if !pending { screen.settled += 1 }
            }
        }
        return screen
    }

    /// Column ranges of `N.jpg` tokens standing alone (a title line has nothing else).
    static func titleTokens(_ line: [Unicode.Scalar]) -> [(Int, Int)] {
        var tokens: [(Int, Int)] = []
        var i = 0
        while i < line.count {
            if line[i] == " " { i += 1; continue }
            var j = i
            while j < line.count, line[j] != " " { j += 1 }
            let word = String(String.UnicodeScalarView(line[i..<j]))
            guard word.range(of: #"^\d+\.jpg$"#, options: .regularExpression) != nil else { return [] }
            tokens.append((i, j))
            i = j
        }
        return tokens
    }
}
