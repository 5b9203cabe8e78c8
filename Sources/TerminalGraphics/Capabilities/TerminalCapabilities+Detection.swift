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
        probe.multiplexer = EnvironmentHints(environment: environment).multiplexer
        probe.tmuxEnvironment = environment
        return resolve(probe: probe.run(), environment: environment)
    }

    /// Combines a probe result with environment hints: replies win, the environment fills gaps.
    /// Pure; tests feed it canned results.
    public static func resolve(probe: ProbeResult, environment: [String: String]) -> TerminalCapabilities {
        let hints = EnvironmentHints(environment: environment)
        let replies = probe.replies
        var sources: [String: String] = [:]
        var caps = TerminalCapabilities(probeStatus: probe.status)
        caps.probeMilliseconds = probe.elapsedMilliseconds

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
        if ["iterm2", "wezterm"].contains(where: { version.lowercased().hasPrefix($0) }) {
            caps.graphics = .iterm2
            sources["graphics"] = "XTVERSION names a terminal with iTerm2 inline images"
        }
        caps.inTmux = hints.inTmux || version.lowercased().hasPrefix("tmux")
        if caps.inTmux {
            caps.tmuxVersion = version.lowercased().hasPrefix("tmux") ? TmuxVersion(version) : hints.tmuxVersion
            caps.tmuxClient = probe.tmuxClient
            let tmux = "tmux \(caps.tmuxVersion.map { "\($0)" } ?? "(version unknown)")"
            // tmux answers DA1 itself: a 4 there is tmux's own sixel (3.4+ built with it), which it
            // draws only where the outer terminal does (its client's features say `sixel`).
            let tmuxHasSixel = replies.supportsSixel && (caps.tmuxVersion ?? TmuxVersion(major: 0, minor: 0)) >= .firstWithSixel
            let outer = probe.tmuxClient?.terminalType ?? "the outer terminal"
            caps.tmuxSixel = tmuxHasSixel && probe.tmuxClient?.drawsSixel == true
            if caps.tmuxSixel {
                sources["graphics"] = "DA1 attribute 4 from \(tmux), and \(outer) draws sixel (client_termfeatures): tmux draws sixel itself"
            } else if tmuxHasSixel {
                caps.graphics = .none
                sources["graphics"] = probe.tmuxClient == nil
                    ? "DA1 attribute 4 from \(tmux), but tmux did not say whether the outer terminal draws sixel (tmux draws text boxes where it does not)"
                    : "DA1 attribute 4 from \(tmux), but \(outer) draws no sixel (client_termfeatures): tmux would draw text boxes"
            } else if replies.supportsSixel {
                // An older tmux (or one that did not say its version) does not draw sixel itself.
                sources["graphics"] = "DA1 attribute 4, but \(tmux) draws no sixel"
            }
        }
        // tmux does not speak kitty graphics: inside it, a kitty reply came from the outer terminal
        // through passthrough, which proves `allow-passthrough` is on.
        let switched = probe.tmuxClient?.switchedPassthroughOn == true ? " (allow-passthrough switched on for this pane)" : ""
        if caps.inTmux && replies.kittyGraphics == true {
            caps.graphics = .kitty
            caps.tmuxPassthrough = true
            sources["graphics"] = "kitty graphics query through tmux passthrough" + switched
        } else if caps.inTmux, let client = probe.tmuxClient, client.passthrough == true,
                  KittyPlaceholders.supported(by: client.terminalType), let name = client.terminalType {
            // tmux names the outer terminal (its own XTVERSION reply): a kitty-protocol terminal
            // whose reply to our wrapped query had not come through (passthrough was switched on
            // after the query, or the reply was slow).
            caps.graphics = .kitty
            caps.tmuxPassthrough = true
            sources["graphics"] = "tmux client_termtype names \(name)" + switched
        } else if caps.inTmux && caps.graphics == .none && hints.graphics != .none
                    && !(hints.graphics == .sixel && probe.tmuxClient != nil) {
            // tmux answered for itself; the environment it inherited names the outer terminal (tmux's
            // own word on sixel, when it gave one, wins).
            caps.graphics = hints.graphics
            sources["graphics"] = "environment (the outer terminal; no reply through tmux passthrough)"
        }
        // Placeholders are drawn by the terminal that draws the pictures: inside tmux the outer one,
        // named by tmux (client_termtype, its XTVERSION reply).
        caps.kittyPlaceholders = KittyPlaceholders.supported(by: caps.inTmux ? probe.tmuxClient?.terminalType : replies.terminalVersion)
        if caps.kittyPlaceholders { sources["placeholders"] = caps.inTmux ? "tmux client_termtype" : "XTVERSION" }
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

        (caps.cellPixelSize, caps.cellSizeSource) = cellPixelSize(
            windowCell: probe.windowCellPixelSize, windowCells: probe.windowCells, replies: replies, hints: hints)
        sources["cell size"] = caps.cellSizeSource.description
        caps.graphicsLimit = replies.graphicsLimit
        sources["graphics limit"] = replies.graphicsLimit == nil ? "not reported" : "XTSMGRAPHICS"

        caps.syncOutput = replies.supportsSyncOutput
        sources["synchronized output"] = replies.syncOutputMode == nil ? "no DECRPM reply" : "DECRPM 2026"
        caps.backgroundColor = replies.backgroundColor
        sources["background"] = replies.backgroundColor == nil ? "unknown (assuming black)" : "OSC 11"
        caps.sources = sources
        return caps
    }
}
