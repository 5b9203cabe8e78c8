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
        lines.append("probe:               \(probeStatus.rawValue)")
        lines.append("graphics protocol:   \(graphics.rawValue)\(source("graphics"))")
        lines.append("colour depth:        \(colorDepth.rawValue)\(source("colours"))")
        lines.append("cell size:           \(cellPixelSize.map { "\($0)" } ?? "unknown")\(source("cell size"))")
        lines.append("tmux:                \(inTmux ? "yes" : "no")")
        lines.append("synchronized output: \(syncOutput ? "yes" : "no")\(source("synchronized output"))")
        lines.append("background:          \(backgroundColor.map { "\($0)" } ?? "unknown")\(source("background"))")
        lines.append("renderer:            \(selection.kind)\(selection.tmuxPassthrough ? " via tmux passthrough" : "")")
        lines.append("                     \(selection.reason)")
        return lines.joined(separator: "\n")
    }
}
