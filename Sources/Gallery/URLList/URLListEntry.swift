/// One image of a list: where it is, its optional title, and the line it came from.
public struct URLListEntry: Sendable, Hashable {
    /// 1-based line number in the list.
    public var line: Int
    /// The image's location.
    public var location: ImageLocation
    /// The title given after the URL, sanitized and trimmed; `nil` when none.
    public var title: String?

    /// Creates an entry.
    public init(line: Int, location: ImageLocation, title: String? = nil) {
        self.line = line
        self.location = location
        self.title = title
    }

    /// What a caption shows: the title, else the file name.
    public var displayName: String { title ?? location.fileName }
}
