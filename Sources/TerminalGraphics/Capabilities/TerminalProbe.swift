#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// The result of one probe: how it went, the parsed replies, and the ioctl cell size.
public struct ProbeResult: Sendable, Hashable {
    /// How the probe ended.
    public var status: ProbeStatus
    /// Parsed replies (empty when nothing arrived).
    public var replies: ProbeReplies
    /// Cell size from `TIOCGWINSZ` when its pixel fields were sane.
    public var windowCellPixelSize: PixelSize?
    /// The window in cells from `TIOCGWINSZ` (divides a `CSI 14 t` window size into cells).
    public var windowCells: CellSize?
    /// Time spent waiting, in milliseconds.
    public var elapsedMilliseconds: Int
    /// Inside tmux: what tmux said of its client (passthrough, the outer terminal's features and name).
    public var tmuxClient: TmuxClient?

    /// Creates a result.
    public init(
        status: ProbeStatus, replies: ProbeReplies = ProbeReplies(), windowCellPixelSize: PixelSize? = nil,
        windowCells: CellSize? = nil, elapsedMilliseconds: Int = 0, tmuxClient: TmuxClient? = nil
    ) {
        self.tmuxClient = tmuxClient
        self.status = status
        self.replies = replies
        self.windowCellPixelSize = windowCellPixelSize
        self.windowCells = windowCells
        self.elapsedMilliseconds = elapsedMilliseconds
    }
}

/// The only code in this module that talks to a tty: writes the probe queries in one write, reads
/// replies until DA1 (asked last) or the deadline, and restores the terminal mode. Parsing is done by
/// the pure `ProbeReplyParser`.
public struct TerminalProbe: Sendable {
    /// File descriptor replies are read from (normally 0).
    public var input: Int32
    /// File descriptor queries are written to (normally 1).
    public var output: Int32
    /// Hard cap on the wait for replies.
    public var timeoutMilliseconds: Int
    /// Whether to ask the background colour (OSC 11) too.
    public var queryBackground: Bool
    /// The multiplexer we run in. Inside tmux the kitty query goes only wrapped for passthrough (its
    /// reply comes back when `allow-passthrough` is on, after tmux's own DA1 reply, so the probe waits
    /// up to `passthroughGraceMilliseconds` longer for it); inside GNU screen it is not sent at all.
    /// Raw, both would take it for a title.
    public var multiplexer = TerminalMultiplexer.none
    /// The extra wait for the outer terminal's reply (within `timeoutMilliseconds`).
    public var passthroughGraceMilliseconds = 120
    /// How long the probe reads on, past its end, to the end of a reply it is inside of (its bytes
    /// dropped), after the last bytes came (at most six times this in all): what is left of it would
    /// reach the gallery as keys.
    public var unfinishedReplyMilliseconds = 500
    /// Inside tmux: what tmux says of its client (`TmuxClient`), when already known (tests); with
    /// passthrough off, the wrapped query is not sent and its reply not waited for.
    public var tmuxClient: TmuxClient?
    /// Inside tmux, with `tmuxClient` unknown: the environment to ask tmux with, before the query is
    /// written; nil: not asked.
    public var tmuxEnvironment: [String: String]?
    /// Inside tmux whose `allow-passthrough` is off, in a terminal that draws kitty Unicode
    /// placeholders (`KittyPlaceholders.supported`): switch it on for this pane (`set -p`), as timg
    /// and yazi do; `--probe` and the man page say so.
    public var switchesPassthroughOn = true
    /// How long, from the query's write, tmux is asked again while its client has no name yet.
    public var tmuxClientWaitMilliseconds = 250

    /// Creates a probe over two file descriptors.
    public init(input: Int32 = 0, output: Int32 = 1, timeoutMilliseconds: Int = 250, queryBackground: Bool = true) {
        self.input = input
        self.output = output
        self.timeoutMilliseconds = max(1, timeoutMilliseconds)
        self.queryBackground = queryBackground
    }

    /// The query bytes: XTVERSION, kitty graphics query (outside a multiplexer; wrapped for passthrough
    /// inside tmux; not inside screen), `CSI 16 t` (cell size), `CSI 14 t` (window size), XTSMGRAPHICS
    /// geometry (`CSI ? 2 ; 1 ; 0 S`: xterm answers only the three-parameter form), DECRQM 2026,
    /// optional OSC 11, and DA1 last (every terminal answers it, so its reply ends the wait).
    /// `passthrough: false` (tmux's `allow-passthrough` is off) leaves the wrapped query out.
    public static func query(includeBackground: Bool, multiplexer: TerminalMultiplexer = .none, passthrough: Bool = true) -> [UInt8] {
        let kitty = KittyRenderer.command("i=31,s=1,v=1,a=q,t=d,f=24", payload: Array("AAAA".utf8)[...])
        var q = EscapeSequence.terminalVersionQuery + (multiplexer == .none ? kitty : [])
        q += EscapeSequence.cellSizeQuery + EscapeSequence.windowSizeQuery + EscapeSequence.graphicsGeometryQuery
        q += EscapeSequence.synchronizedOutputQuery
        if multiplexer == .tmux && passthrough { q += TmuxPassthrough.wrap(kitty) }
        if includeBackground { q += EscapeSequence.backgroundColorQuery }
        return q + EscapeSequence.primaryDeviceAttributesQuery
    }

    /// Runs the probe. Never probes when either descriptor is not a tty or the process is not in
    /// the terminal's foreground process group.
    public func run() -> ProbeResult {
        guard isatty(input) == 1, isatty(output) == 1 else { return ProbeResult(status: .notATerminal) }
        let foreground = tcgetpgrp(output)
        if foreground != -1 && foreground != getpgrp() { return ProbeResult(status: .background) }
        let window = WindowSize.read(output)
        let windowCell = window?.cellPixelSize
        let windowCells = window?.cells

        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return ProbeResult(status: .failed, windowCellPixelSize: windowCell, windowCells: windowCells) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else {
            return ProbeResult(status: .failed, windowCellPixelSize: windowCell, windowCells: windowCells)
        }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }

        var client = multiplexer == .tmux ? askTmux() : nil
        let start = Self.nowMilliseconds()
        // tmux said passthrough is off: nothing wrapped could come back, so nothing wrapped is sent.
        let asksThroughTmux = multiplexer == .tmux && client?.passthrough != false
        guard Self.writeAll(output, Self.query(includeBackground: queryBackground, multiplexer: multiplexer, passthrough: asksThroughTmux)) else {
            return ProbeResult(status: .failed, windowCellPixelSize: windowCell, windowCells: windowCells, tmuxClient: client)
        }
        var received: [UInt8] = []
        var replies = ProbeReplies()
        var status = ProbeStatus.timedOut
        var buffer = [UInt8](repeating: 0, count: 4096)
        var deadline = timeoutMilliseconds
        // Where the replies stand (bounded: bodies are not kept): the probe never stops inside a
        // sequence, whose rest the gallery would read as keys (a 1 MB OSC 11 reply's letters quit
        // it). Once done it reads on to that sequence's end, dropping the bytes, while they keep
        // coming (a silence of `unfinishedReplyMilliseconds` ends it), for at most six times that.
        var sequence = VTTokenizer(maximumLength: 16)
        var done = false
        var drainStarted: Int?, drainEnds: Int?
        while true {
            let elapsed = Self.nowMilliseconds() - start
            if done || elapsed >= deadline {
                guard sequence.isInSequence else { break }
                if drainStarted == nil {
                    drainStarted = elapsed
                    drainEnds = elapsed + unfinishedReplyMilliseconds
                }
            }
            let remaining = (drainEnds ?? deadline) - elapsed
            if remaining <= 0 { break }
            var fds = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(remaining))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { break }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 { status = .failed; break }
            _ = sequence.feed(buffer[0..<count])
            if let drainStarted {
                let now = Self.nowMilliseconds() - start
                drainEnds = min(drainStarted + 6 * unfinishedReplyMilliseconds, now + unfinishedReplyMilliseconds)
            }
            if done { continue }
            received.append(contentsOf: buffer[0..<count])
            if received.count > 65536 { status = .failed; done = true; continue }
            replies = ProbeReplyParser.parse(received)
            if replies.sawDeviceAttributes {
                status = .answered
                // tmux answered; the outer terminal's kitty reply may still be on its way.
                guard asksThroughTmux, replies.kittyGraphics != true else { done = true; continue }
                if deadline == timeoutMilliseconds {
                    deadline = min(timeoutMilliseconds, Self.nowMilliseconds() - start + passthroughGraceMilliseconds)
                }
            }
        }
        // A client tmux has just attached (the gallery as the new session's command) may not have
        // answered tmux's own queries yet: its name and features come a few tens of milliseconds
        // later (kitty 0.41: within 60 ms). Ask again until it is named, for at most 250 ms.
        while client != nil && client?.terminalType == nil && tmuxClient == nil && Self.nowMilliseconds() - start < tmuxClientWaitMilliseconds {
            usleep(25_000)
            client = askTmux() ?? client
        }
        return ProbeResult(
            status: status, replies: replies, windowCellPixelSize: windowCell, windowCells: windowCells,
            elapsedMilliseconds: Self.nowMilliseconds() - start, tmuxClient: client)
    }

    /// What tmux says of its client (`tmuxClient`, else asked with `tmuxEnvironment`), with
    /// passthrough switched on for this pane when it is off and the outer terminal draws kitty
    /// Unicode placeholders.
    func askTmux() -> TmuxClient? {
        guard var client = tmuxClient ?? tmuxEnvironment.flatMap(TmuxClient.ask) else { return nil }
        if client.passthrough == false, switchesPassthroughOn, KittyPlaceholders.supported(by: client.terminalType),
           let environment = tmuxEnvironment, TmuxClient.switchPassthroughOn(environment: environment) {
            client.passthrough = true
            client.switchedPassthroughOn = true
        }
        return client
    }

    /// The cell size for a window of `columns`×`rows` cells and `xPixels`×`yPixels` pixels, or nil
    /// when the pixel fields are missing or implausible (`WindowSize.cell(of:over:)`).
    static func sane(columns: Int, rows: Int, xPixels: Int, yPixels: Int) -> PixelSize? {
        WindowSize.cell(of: PixelSize(width: xPixels, height: yPixels), over: CellSize(columns: columns, rows: rows))
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    static func nowMilliseconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
    }
}
