import SafeText

extension TerminalCapabilities: CustomStringConvertible {
    /// A multi-line report for `sdgallery --probe` with the automatic renderer choice. All terminal
    /// text is sanitized.
    public var description: String { report(option: .auto) }

    /// The `--probe` report for a `--renderer` option.
    public func report(option: RendererOption) -> String {
        func source(_ key: String) -> String {
            sources[key].map { " (\(UntrustedText.strip($0)))" } ?? ""
        }
        let selection = RendererSelection.choose(for: self, option: option)
        var lines: [String] = []
        lines.append("terminal:            \(UntrustedText.strip(terminalName ?? "unknown"))\(source("terminal"))")
        let waited = probeStatus == .answered || probeStatus == .timedOut ? " in \(probeMilliseconds) ms" : ""
        lines.append("probe:               \(probeStatus.rawValue)\(waited)")
        lines.append("graphics protocol:   \(graphics.rawValue)\(source("graphics"))")
        lines.append("colour depth:        \(colorDepth.rawValue)\(source("colours"))")
        lines.append("cell size:           \(effectiveCellPixelSize)\(source("cell size"))")
        lines.append("graphics limit:      \(graphicsLimit.map { "\($0)" } ?? "none")\(source("graphics limit"))")
        lines.append("tmux:                \(tmuxLine)")
        lines.append("synchronized output: \(syncOutput ? "yes" : "no")\(source("synchronized output"))")
        lines.append("background:          \(backgroundColor.map { "\($0)" } ?? "unknown")\(source("background"))")
        lines.append("renderer:            \(selection.kind)\(selection.tmuxPassthrough ? " via tmux passthrough" : "")")
        lines.append("                     \(selection.reason)")
        if let limitation = selection.limitation { lines.append("note:                \(limitation)") }
        return lines.joined(separator: "\n")
    }

    /// "no", or "yes" with tmux's version and whether it draws sixel itself.
    var tmuxLine: String {
        guard inTmux else { return "no" }
        return "yes" + (tmuxVersion.map { ", \($0)" } ?? "") + (tmuxSixel ? ", draws sixel itself" : ", no sixel of its own")
            + (tmuxPassthrough ? ", passthrough on" : "")
    }
}
