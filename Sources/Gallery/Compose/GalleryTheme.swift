import TerminalGraphics

/// Colours and attributes of the gallery's chrome.
public struct GalleryTheme: Sendable, Hashable {
    /// Caption title.
    public var title: TextStyle
    /// Caption details (size, bytes, progress).
    public var details: TextStyle
    /// Caption of the selected item.
    public var selectedTitle: TextStyle
    /// Details line of the selected item.
    public var selectedDetails: TextStyle
    /// Empty image box while waiting.
    public var placeholder: TextStyle
    /// Character filling a waiting box.
    public var placeholderFill: String
    /// Progress bar, filled part.
    public var barFilled: TextStyle
    /// Progress bar, remaining part.
    public var barEmpty: TextStyle
    /// Error box.
    public var error: TextStyle
    /// Status bar.
    public var status: TextStyle
    /// Help overlay.
    public var help: TextStyle
    /// Help overlay key names.
    public var helpKey: TextStyle

    /// 256-colour theme.
    public static let colour = GalleryTheme(
        title: TextStyle(),
        details: TextStyle(foreground: .palette(244)),
        selectedTitle: TextStyle(foreground: .palette(231), background: .palette(25), bold: true),
        selectedDetails: TextStyle(foreground: .palette(189), background: .palette(25)),
        placeholder: TextStyle(foreground: .palette(238), background: .palette(235)),
        placeholderFill: " ",
        barFilled: TextStyle(foreground: .palette(39), background: .palette(235)),
        barEmpty: TextStyle(foreground: .palette(239), background: .palette(235)),
        error: TextStyle(foreground: .palette(217), background: .palette(52)),
        status: TextStyle(foreground: .palette(252), background: .palette(237)),
        help: TextStyle(foreground: .palette(252), background: .palette(236)),
        helpKey: TextStyle(foreground: .palette(117), background: .palette(236), bold: true)
    )

    /// The colour theme for a terminal whose background is light (as its OSC 11 reply says): the
    /// placeholders and the bar's track are light greys instead of near-black boxes on white.
    public static let colourOnLight: GalleryTheme = {
        var theme = GalleryTheme.colour
        theme.details = TextStyle(foreground: .palette(242))
        theme.placeholder = TextStyle(foreground: .palette(248), background: .palette(254))
        theme.barFilled = TextStyle(foreground: .palette(32), background: .palette(254))
        theme.barEmpty = TextStyle(foreground: .palette(250), background: .palette(254))
        return theme
    }()

    /// The colour theme for a terminal background (nil: not reported, dark assumed).
    public static func colour(on background: RGBColor?) -> GalleryTheme {
        guard let background else { return .colour }
        let luma = 0.2126 * Double(background.r) + 0.7152 * Double(background.g) + 0.0722 * Double(background.b)
        return luma > 140 ? .colourOnLight : .colour
    }

    /// Theme for terminals without colours: attributes only.
    public static let monochrome = GalleryTheme(
        title: .plain,
        details: TextStyle(dim: true),
        selectedTitle: TextStyle(bold: true, reverse: true),
        selectedDetails: TextStyle(reverse: true),
        placeholder: TextStyle(dim: true),
        placeholderFill: "·",
        barFilled: TextStyle(bold: true),
        barEmpty: TextStyle(dim: true),
        error: TextStyle(bold: true),
        status: TextStyle(reverse: true),
        help: .plain,
        helpKey: TextStyle(bold: true)
    )
}
