/// `--animate=off|on|N`: whether grid and list cells play their animations, and how many bytes per
/// second their frames may send to a bitmap terminal (sixel, iTerm2; kitty's first loop). Text
/// renderers play every frame; the full view plays in any case.
public struct AnimationSetting: Sendable, Hashable {
    /// Whether cells play.
    public var cellsPlay: Bool
    /// The frames' budget to the terminal.
    public var bytesPerSecond: Int

    /// The default: cells play, within 1 MB/s.
    public static let on = AnimationSetting(cellsPlay: true, bytesPerSecond: 1_000_000)
    /// Cells show their first frame.
    public static let off = AnimationSetting(cellsPlay: false, bytesPerSecond: on.bytesPerSecond)

    /// Creates a setting.
    public init(cellsPlay: Bool, bytesPerSecond: Int) {
        self.cellsPlay = cellsPlay
        self.bytesPerSecond = bytesPerSecond
    }

    /// Parses `off`, `on`, or a rate in bytes per second (`500k`, `2M`); nil when it is none.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "off", "no", "0": self = .off
        case "on", "yes": self = .on
        default:
            guard let rate = GalleryOptions.parseRate(text) else { return nil }
            self.init(cellsPlay: true, bytesPerSecond: rate)
        }
    }
}
