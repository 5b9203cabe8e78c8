import Foundation

/// Waiting on the program's own "settled" signal (`SettleLog`) instead of comparing screenshots
/// taken seconds apart.
extension GraphicalTerminal {
    /// Waits until the gallery logging to `log` has settled after every key sent so far (and on a
    /// frame after `frame`, when given), then takes a screenshot to `path`, and a second one to
    /// confirm (a terminal draws what it read a little later): when they differ, more follow,
    /// `confirmInterval` apart, until two agree. Returns the settled state, nil when the program did
    /// not settle or the screen kept changing until `timeout`.
    @discardableResult
    public func screenshotWhenSettled(_ log: SettleLog, to path: String, crop: String? = nil, keys: Int? = nil, after frame: Int? = nil,
                                      confirmInterval: Double = 0.2, timeout: Double = 60) throws -> SettleLog.Settled? {
        let deadline = Date().addingTimeInterval(timeout)
        let keys = keys ?? keysSent
        guard let settled = log.waitSettled(keys: keys, after: frame, timeout: timeout) else {
            try screenshot(to: path, crop: crop)
            return nil
        }
        let previous = path + ".previous.png"
        defer { try? FileManager.default.removeItem(atPath: previous) }
        try screenshot(to: previous, crop: crop)
        var shots = 1
        while true {
            try screenshot(to: path, crop: crop)
            shots += 1
            if try Self.differingPixels(previous, path) == 0 { break }
            if Date() >= deadline { return nil }
            try? FileManager.default.removeItem(atPath: previous)
            try FileManager.default.moveItem(atPath: path, toPath: previous)
            usleep(useconds_t(confirmInterval * 1_000_000))
        }
        progress.withLock { $0.lastSettled = settled }
        if shots > 2 { print("screenshotWhenSettled: \(shots) screenshots after settled frame \(settled.frame) until two agreed") }
        return settled
    }

    /// Keys sent so far through `xdotool`.
    public var keysSent: Int { progress.withLock { $0.keysSent } }

    /// How many keys `xdotool key`/`type` calls sent: names after `key` (not options and their values),
    /// characters after `type`.
    static func keyCount(_ arguments: [String]) -> Int {
        guard let command = arguments.first, command == "key" || command == "type" else { return 0 }
        var count = 0, skipNext = false
        for argument in arguments.dropFirst() {
            if skipNext { skipNext = false; continue }
            if argument.hasPrefix("--") {
                skipNext = ["--delay", "--window", "--repeat", "--repeat-delay"].contains(argument)
                continue
            }
            count += command == "key" ? 1 : argument.count
        }
        return count
    }
}
