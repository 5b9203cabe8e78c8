import Foundation
import ImageCodecs

extension TerminalCapabilities {
    /// Probes the terminal on `input`/`output` (unless they are not a tty or we are in the
    /// background) and combines the replies with the environment. Blocks at most `timeoutMilliseconds`.
    public static func detect(
        input: Int32 = 0, output: Int32 = 1,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        timeoutMilliseconds: Int = 250, queryBackground: Bool = true
    ) -> TerminalCapabilities {
        var probe = TerminalProbe(
            input: input, output: output, timeoutMilliseconds: timeoutMilliseconds,
            queryBackground: queryBackground)
        probe.tmuxPassthrough = EnvironmentHints(environment: environment).inTmux
        return resolve(probe: probe.run(), environment: environment)
    }

    /// Combines a probe result with environment hints: replies win, the environment fills gaps.
    /// Pure; tests feed it canned results.
    public static func resolve(probe: ProbeResult, environment: [String: String]) -> TerminalCapabilities {
        let hints = EnvironmentHints(environment: environment)
        let replies = probe.replies
        var sources: [String: String] = [:]
        var caps = TerminalCapabilities(probeStatus: probe.status)

        if replies.kittyGraphics == true {
            caps.graphics = .kitty
            sources["graphics"] = "kitty graphics query"
        } else if replies.supportsSixel {
            caps.graphics = .sixel
            sources["graphics"] = "DA1 attribute 4"
        } else if hints.graphics != .none && !replies.sawDeviceAttributes {
            caps.graphics = hints.graphics
            sources["graphics"] = "environment"
        } else {
            caps.graphics = .none
            sources["graphics"] = replies.sawDeviceAttributes ? "DA1 (no sixel), no kitty reply" : "default"
        }

        let version = replies.terminalVersion ?? ""
        caps.inTmux = hints.inTmux || version.lowercased().hasPrefix("tmux")
        // tmux does not speak kitty graphics: inside it, a kitty reply came from the outer terminal
        // through passthrough, which proves `allow-passthrough` is on.
        if caps.inTmux && replies.kittyGraphics == true {
            caps.tmuxPassthrough = true
            sources["graphics"] = "kitty graphics query through tmux passthrough"
        } else if caps.inTmux && caps.graphics == .none && hints.graphics != .none {
            // tmux answered for itself; the environment it inherited names the outer terminal.
            caps.graphics = hints.graphics
            sources["graphics"] = "environment (the outer terminal; no reply through tmux passthrough)"
        }
        if let name = replies.terminalVersion {
            caps.terminalName = name
            sources["terminal"] = "XTVERSION"
        } else {
            caps.terminalName = hints.terminalName
            sources["terminal"] = "environment"
        }

        caps.colorDepth = hints.colorDepth
        if replies.kittyGraphics == true && caps.colorDepth != .truecolor {
            caps.colorDepth = .truecolor  // every kitty-protocol terminal does 24-bit colour
        }
        sources["colours"] = "environment (COLORTERM/TERM)"

        if let cell = probe.windowCellPixelSize {
            caps.cellPixelSize = cell
            sources["cell size"] = "TIOCGWINSZ"
        } else if let cell = replies.cellPixelSize {
            caps.cellPixelSize = cell
            sources["cell size"] = "CSI 16 t"
        } else {
            sources["cell size"] = "unknown (assuming \(PixelSize.fallbackCell))"
        }

        caps.syncOutput = replies.supportsSyncOutput
        sources["synchronized output"] = replies.syncOutputMode == nil ? "no DECRPM reply" : "DECRPM 2026"
        caps.backgroundColor = replies.backgroundColor
        sources["background"] = replies.backgroundColor == nil ? "unknown (assuming black)" : "OSC 11"
        caps.sources = sources
        return caps
    }
}
