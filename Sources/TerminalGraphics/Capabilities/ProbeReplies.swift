import ImageCodecs
/// What a terminal answered to the capability probe, parsed from its reply bytes.
public struct ProbeReplies: Sendable, Hashable {
    /// XTVERSION text (`DCS > | text ST`), sanitized; e.g. "XTerm(379)", "kitty(0.35.2)".
    public var terminalVersion: String?
    /// Primary device attributes (`CSI ? Ps ; … c`) parameters; nil when no DA1 reply arrived.
    public var deviceAttributes: [Int]?
    /// Kitty graphics query reply: true for "OK", false for an error; nil when unanswered.
    public var kittyGraphics: Bool?
    /// Cell pixel size from `CSI 6 ; height ; width t` (the reply to `CSI 16 t`).
    public var cellPixelSize: PixelSize?
    /// Window size in pixels from `CSI 4 ; height ; width t` (the reply to `CSI 14 t`; VTE answers it
    /// where it answers neither `TIOCGWINSZ` pixels nor `CSI 16 t`).
    public var windowPixelSize: PixelSize?
    /// The largest sixel bitmap the terminal shows, from XTSMGRAPHICS (`CSI ? 2 ; 0 ; width ; height S`,
    /// the reply to `CSI ? 2 ; 1 ; 0 S`: in xterm the window or `maxGraphicSize`, whichever is
    /// smaller). xterm drops a bigger image whole.
    public var graphicsLimit: PixelSize?
    /// DECRPM state for mode 2026 (0 unknown, 1 set, 2 reset, 3 permanently set, 4 permanently reset).
    public var syncOutputMode: Int?
    /// OSC 11 background colour.
    public var backgroundColor: RGBColor?

    /// Creates an empty reply set.
    public init() {}

    /// Whether the DA1 reply (the sentinel, asked last) arrived.
    public var sawDeviceAttributes: Bool { deviceAttributes != nil }

    /// Whether DA1 lists 4 (sixel graphics).
    public var supportsSixel: Bool { deviceAttributes?.dropFirst().contains(4) == true }

    /// Whether DECRPM says mode 2026 is recognised (set or reset, possibly permanently set).
    public var supportsSyncOutput: Bool { [1, 2, 3].contains(syncOutputMode ?? 0) }
}
