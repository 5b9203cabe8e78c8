import Foundation
import Testing
import TestSupport

/// The screen oracle of the real-terminal tests: after what a user does (keys, paging while images
/// load, a resize), once the screen has settled, it must equal the screen after Ctrl-L (a full
/// repaint): nothing left over from earlier frames. Screenshots of the whole X screen; set
/// `SDG_KEEP_SHOTS=DIR` to keep them (and the gallery's event log) for a look.
enum ScreenOracle {
    /// Images of several shapes and colours, `count` list entries cycling through them (`list.txt`).
    static func mixedList(in dir: URL, count: Int) async throws {
        let shapes = [("a.png", "#e01010", "400x300"), ("b.png", "#10c020", "200x400"), ("c.png", "#1030e0", "500x150"),
                      ("d.png", "#e0c010", "300x300"), ("e.png", "#c010c0", "120x360"), ("f.png", "#10c0c0", "640x200")]
        for (name, colour, size) in shapes { try await EndToEnd.makeImagesAsync(in: dir, [(name, colour)], size: size) }
        let lines = (0..<count).map { "\(shapes[($0 * 5 + $0 / 7) % shapes.count].0) Item\($0)" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
    }

    /// The share of `shot` (cropped to `crop`) in any of the mixed list's image colours.
    static func imageShare(_ shot: String, crop: String) throws -> Double {
        // White (xterm's background, captions) first becomes black, so only image colours count.
        var arguments = [shot, "-crop", crop, "+repage", "-fuzz", "12%", "-fill", "black", "-opaque", "white", "-fill", "white"]
        for colour in ["#e01010", "#10c020", "#1030e0", "#e0c010", "#c010c0", "#10c0c0"] { arguments += ["-opaque", colour] }
        let out = try EndToEnd.run("/usr/bin/convert", arguments + ["-fill", "black", "+opaque", "white", "-format", "%[fx:mean]", "info:"])
        return Double(out.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The mixed list of 60 entries; after each group of `keys` the screen settles.
    static func afterKeys(_ kind: GraphicalTerminal.Kind, keys: [[String]], label: String,
                          inspect: (String) throws -> Void = { _ in }, wrap: (String) -> String = { $0 }) async throws {
        try await check(kind, label: label, arguments: "list.txt", prepare: { try await mixedList(in: $0, count: 60) },
                        inspect: inspect, wrap: wrap) { terminal, scratch in
            _ = try terminal.settledScreenshot(to: scratch)
            for group in keys {
                try terminal.xdotool(["key", "--delay", "150"] + group)
                _ = try terminal.settledScreenshot(to: scratch, interval: 0.7)
            }
        }
    }

    /// Starts `sdgallery ARGUMENTS` in `kind` (in a directory `prepare` fills), runs `actions` (given
    /// the terminal and a scratch screenshot path), waits until the gallery says it settled after
    /// every key (its event log, `SettleLog`), presses Ctrl-L, waits again, and expects both
    /// screenshots to be equal; `inspect` looks at the first. `wrap` turns
    /// the shell command into the one the terminal runs (e.g. inside tmux).
    static func check(_ kind: GraphicalTerminal.Kind, label: String, arguments: String, settleTimeout: Double = 60,
                      prepare: (URL) async throws -> Void = { _ in }, inspect: (String) throws -> Void = { _ in },
                      wrap: (String) -> String = { $0 },
                      actions: @escaping @Sendable (GraphicalTerminal, String) throws -> Void) async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-oracle")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await prepare(dir)
        let before = dir.appendingPathComponent("\(kind)-\(label)-keys.png").path
        let after = dir.appendingPathComponent("\(kind)-\(label)-repaint.png").path
        let diff = dir.appendingPathComponent("\(kind)-\(label)-diff.png").path
        // The gallery says when it has settled (`SettleLog`): each wait below is for that line.
        // A wrapped gallery (inside tmux) is drawn by tmux, later than the gallery writes: there the
        // screenshots themselves must settle.
        let log = SettleLog(directory: dir.path)
        let plain = "XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) \(arguments); sleep 60"
        let direct = wrap(plain) == plain
        let command = direct ? "\(log.assignment) \(plain)" : wrap(plain)
        let (settled, differing) = try await Blocking.run { () throws -> (Bool, Int) in
            let terminal = try GraphicalTerminal(kind: kind, command: command, directory: dir.path, size: (110, 34),
                                                 settleLog: direct ? log : nil)
            defer { terminal.stop() }
            // Keys sent before the gallery runs would be read by the probe: every key must count.
            guard !direct || log.waitForFirstFrame() else { return (false, -1) }
            try actions(terminal, before)
            // Animations play until paused (`a`): paused, the screen settles, and Ctrl-L must paint
            // the frames it holds.
            try terminal.key("a")
            let first = try terminal.settledScreenshot(to: before, timeout: settleTimeout)
            try terminal.key("ctrl+l")
            var second = try terminal.settledScreenshot(to: after, timeout: settleTimeout, newFrame: true)
            var differing = try GraphicalTerminal.differingPixels(before, after, diff: diff)
            // A slow terminal (Konsole decoding a page of kitty uploads on a loaded machine) can show
            // the cleared screen after the gallery has written everything: look again, 3 s apart, for
            // a while. What a repaint really fixes stays different however long one waits.
            let deadline = Date().addingTimeInterval(30)
            while differing > 0 && Date() < deadline {
                Thread.sleep(forTimeInterval: 3)
                second = try terminal.settledScreenshot(to: after, interval: 3, timeout: settleTimeout)
                differing = try GraphicalTerminal.differingPixels(before, after, diff: diff)
            }
            return (first && second, differing)
        }
        #expect(settled, "the screen did not settle; the gallery's event log ends with \(log.lines.suffix(2))")
        keep([before, after, diff, log.path])
        try inspect(before)
        #expect(differing == 0, "\(differing) pixels differ from the repainted screen after \(label) (\(before))")
    }

    static func keep(_ paths: [String]) {
        guard let dir = ProcessInfo.processInfo.environment["SDG_KEEP_SHOTS"] else { return }
        for path in paths {
            try? FileManager.default.copyItem(atPath: path, toPath: dir + "/" + URL(fileURLWithPath: path).lastPathComponent)
        }
    }
}
