import SafeText

extension TerminalProfile {
    /// The `sdgallery --probe` report: what the terminal said, where each fact came from, and what
    /// this profile decided. All terminal text is sanitized.
    public var report: String {
        let caps = capabilities
        func source(_ key: String) -> String {
            caps.sources[key].map { " (\(UntrustedText.strip($0)))" } ?? ""
        }
        var lines: [String] = []
        lines.append("terminal:            \(UntrustedText.strip(caps.terminalName ?? "unknown"))\(source("terminal"))")
        let waited = caps.probeStatus == .answered || caps.probeStatus == .timedOut ? " in \(caps.probeMilliseconds) ms" : ""
        lines.append("probe:               \(caps.probeStatus.rawValue)\(waited)")
        lines.append("graphics protocol:   \(caps.graphics.rawValue)\(source("graphics"))")
        lines.append("colour depth:        \(caps.colorDepth.rawValue)\(source("colours"))")
        lines.append("cell size:           \(cellPixelSize) (\(UntrustedText.strip(cellSizeSource.description)))")
        lines.append("graphics limit:      \(caps.graphicsLimit.map { "\($0)" } ?? "none")\(source("graphics limit"))")
        lines.append("tmux:                \(caps.tmuxLine)")
        lines.append("synchronized output: \(strategy.synchronizedOutput ? "yes" : "no")\(source("synchronized output"))")
        lines.append("background:          \(caps.backgroundColor.map { "\($0)" } ?? "unknown")\(source("background"))")
        lines.append("renderer:            \(renderer.kind)\(renderer.tmuxPassthrough ? " via tmux passthrough" : "")")
        lines.append("                     \(renderer.reason)")
        if let limitation = renderer.limitation { lines.append("note:                \(limitation)") }
        return lines.joined(separator: "\n")
    }
}
