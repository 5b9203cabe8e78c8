import TerminalGraphics

/// One thing that happens to the gallery during a random exploration: a key, a load moving, the
/// paint queue finishing, a resize. Decoded from an integer, so property tests generate and shrink
/// plain arrays of integers (smaller codes are simpler steps).
enum ExplorationStep: Sendable, CustomStringConvertible {
    case key(String, [UInt8])
    case load(pick: Int, ScriptedSource.Step)
    case paint
    case resize(CellSize)
    /// The network catches up and every paint finishes (`GalleryDriver.settle`).
    case settle

    /// The keys explored, by name, with their bytes.
    static let keys: [(String, String)] = [
        ("j", "j"), ("k", "k"), ("PageDown", "\u{1B}[6~"), ("PageUp", "\u{1B}[5~"), ("h", "h"), ("l", "l"),
        ("Down", "\u{1B}[B"), ("Up", "\u{1B}[A"), ("Left", "\u{1B}[D"), ("Right", "\u{1B}[C"), ("g", "g"), ("G", "G"),
        ("Enter", "\r"), ("q", "q"), ("n", "n"), ("p", "p"), ("v", "v"), ("Esc", "\u{1B}"), ("r", "r"),
        ("Ctrl-L", "\u{0C}"), ("/", "/"), ("a", "a"),
    ]
    static let sizes = [CellSize(columns: 100, rows: 30), CellSize(columns: 64, rows: 20), CellSize(columns: 80, rows: 24)]

    /// The step for `code` (any integer; negative ones count as their magnitude).
    init(code: Int) {
        let code = code.magnitude
        let detail = Int(code / 8)
        switch code % 8 {
        case 0, 1, 2, 3:
            let (name, bytes) = Self.keys[detail % Self.keys.count]
            if name == "/" {
                // A filter: one or two digits typed, then Enter.
                let typed = String(detail / Self.keys.count % 100)
                self = .key("/\(typed)⏎", Array(("/" + typed + "\r").utf8))
            } else {
                self = .key(name, Array(bytes.utf8))
            }
        case 4, 5: self = .load(pick: detail % 8, ScriptedSource.Step.allCases[detail / 8 % ScriptedSource.Step.allCases.count])
        case 6: self = detail % 8 == 7 ? .resize(Self.sizes[detail / 8 % Self.sizes.count]) : .paint
        default: self = .settle
        }
    }

    /// Steps from their descriptions, space-separated ("PageDown k settle /10⏎ load[2].final"): the
    /// form failures print, for regression tests.
    static func parse(_ text: String) -> [ExplorationStep] {
        text.split(separator: " ").compactMap { word -> ExplorationStep? in
            let word = String(word)
            if word == "settle" { return .settle }
            if word == "paint" { return .paint }
            if word.hasPrefix("/") { return .key(word, Array((word.dropLast() + "\r").utf8)) }
            if let key = keys.first(where: { $0.0 == word }) { return .key(key.0, Array(key.1.utf8)) }
            if word.hasPrefix("load["), let close = word.firstIndex(of: "]"),
               let pick = Int(word[word.index(word.startIndex, offsetBy: 5)..<close]),
               let step = ScriptedSource.Step.allCases.first(where: { "\($0)" == word[word.index(after: word.index(after: close))...] }) {
                return .load(pick: pick, step)
            }
            return nil
        }
    }

    var description: String {
        switch self {
        case .key(let name, _): return name
        case .load(let pick, let step): return "load[\(pick)].\(step)"
        case .paint: return "paint"
        case .resize(let size): return "resize \(size.columns)x\(size.rows)"
        case .settle: return "settle"
        }
    }
}
