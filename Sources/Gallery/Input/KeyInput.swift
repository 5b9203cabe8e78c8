import Foundation

/// The keyboard side of the frame loop: the terminal's input descriptor, the decoder of what it
/// sends, the key map, and how long an unfinished sequence waits (`EscapeTiming`). It reads what is
/// there and hands back events; the loop decides what they do.
struct KeyInput {
    /// The terminal input (0).
    let descriptor: Int32
    /// Bytes to events.
    var decoder = InputDecoder()
    /// Events to actions (double clicks need its memory).
    var keys = KeyMap()
    /// How long an unfinished sequence waits for its rest.
    var escapes = EscapeTiming()
    /// Keys (and mouse reports) read and handled.
    var keysRead = 0

    /// The input on `descriptor`.
    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Whether a sequence is half read.
    var hasPending: Bool { decoder.hasPending }

    /// Reads what is available at `now`; nil at end of input (an interrupted read gives no events).
    mutating func read(now: Double) -> [InputEvent]? {
        escapes.inputCame(at: now)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Foundation.read(descriptor, &buffer, buffer.count)
        if count == 0 { return nil }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        return decoder.feed(buffer[0..<count])
    }

    /// Milliseconds the loop may wait before a half-read sequence counts as what it has; nil when
    /// none is half read.
    func timeout(now: Double) -> Int32? {
        guard decoder.hasPending else { return nil }
        return max(0, escapes.wait(now: now) - escapes.inputAge(now: now))
    }

    /// The half-read sequence as what it has so far, once its wait is over (a lone ESC as Esc);
    /// empty before. A reply still open (a string sequence outlives flushes) waits another timeout.
    mutating func flushIfOver(now: Double) -> [InputEvent] {
        guard decoder.hasPending, escapes.waitIsOver(now: now) else { return [] }
        escapes.inputCame(at: now)
        return decoder.flush()
    }
}
