import WebImage
import ImageCodecs

/// One image of the gallery: its list entry, what its cell shows, and what is known about it.
public struct GalleryItem: Sendable, Hashable {
    /// The list entry (location, title, line).
    public var entry: URLListEntry
    /// The cell's state.
    public var state: CellState = .placeholder
    /// The image's own pixel size, once known.
    public var pixelSize: PixelSize?
    /// The encoded size in bytes, once known.
    public var byteCount: Int64?
    /// The format name ("JPEG", "PNG"…), once known.
    public var format: String?
    /// Where the image came from ("memory", "disk", "network", "file"), once known.
    public var origin: String?

    /// Why the item's list line cannot be used (nil for a good line); such an item is never loaded.
    public private(set) var problem: URLListDiagnostic?

    /// Creates an item in the placeholder state.
    public init(entry: URLListEntry) {
        self.entry = entry
    }

    /// An item for a list line that cannot be used: it shows the diagnostic and is never loaded.
    public init(problem: URLListDiagnostic) {
        self.entry = URLListEntry(line: problem.line, location: .file(path: "/"), title: problem.text.isEmpty ? "line \(problem.line)" : problem.text)
        self.problem = problem
        self.state = .failure(problem.description)
    }

    /// The item for list line `result` (good or bad).
    public init(_ result: Result<URLListEntry, URLListDiagnostic>) {
        switch result {
        case .success(let entry): self.init(entry: entry)
        case .failure(let problem): self.init(problem: problem)
        }
    }

    /// Caption title: the entry's title or file name (sanitized).
    public var title: String { entry.displayName }

    /// Caption details: "1600×1200 · 245 KB", the progress percentage, or the error.
    public var details: String {
        var parts: [String] = []
        if let pixelSize { parts.append(pixelSize.description) }
        if let byteCount { parts.append(SizeText.size(byteCount)) }
        switch state {
        case .placeholder: if parts.isEmpty { parts.append("waiting") }
        case .progress(let received, let expected):
            if let expected, expected > 0 {
                parts.append("\(Int((Double(received) / Double(expected) * 100).rounded(.down)))%")
            } else {
                parts.append(SizeText.size(received))
            }
        case .partial: parts.append("loading")
        case .final: break
        case .failed(let message): return message
        }
        return parts.joined(separator: " · ")
    }
}
