/// How long an unfinished escape sequence waits for its rest before what came counts as keys (a
/// lone ESC as Esc): `escapeTimeout`, or `replyEscapeTimeout` while the terminal may still be
/// answering (the first second, and a second after a resize, which asks the cell size again): a
/// reply's ESC that came 200 ms before its rest was read as Esc, which quit the gallery. Pure: the
/// loop gives the times.
public struct EscapeTiming: Sendable {
    /// Milliseconds to wait for the rest of an escape sequence before a lone ESC counts as Esc.
    public var escapeTimeout: Int32 = 30
    /// The same while replies may come.
    public var replyEscapeTimeout: Int32 = 500
    /// Until when replies may still come (`GalleryApp.now()` time).
    var repliesExpectedUntil = 0.0
    /// When input last came (the wait counts from there).
    var lastInputAt = 0.0

    /// Creates the timing with its defaults.
    public init() {}

    /// Replies may come for the next `seconds` (a query was just sent).
    mutating func expectReplies(now: Double, for seconds: Double = 1) { repliesExpectedUntil = now + seconds }

    /// Input came at `now`.
    mutating func inputCame(at now: Double) { lastInputAt = now }

    /// Milliseconds an unfinished sequence waits for its rest at `now`.
    func wait(now: Double) -> Int32 { now < repliesExpectedUntil ? max(escapeTimeout, replyEscapeTimeout) : escapeTimeout }

    /// Milliseconds since input last came.
    func inputAge(now: Double) -> Int32 { Int32(clamping: Int(((now - lastInputAt) * 1000).rounded(.down))) }

    /// Whether the wait for the rest of a sequence is over at `now`.
    func waitIsOver(now: Double) -> Bool { inputAge(now: now) >= wait(now: now) }
}
