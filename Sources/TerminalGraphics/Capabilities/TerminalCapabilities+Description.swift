
extension TerminalCapabilities: CustomStringConvertible {
    /// A multi-line report for `sdgallery --probe` with the automatic renderer choice (see
    /// `TerminalProfile.report`). All terminal text is sanitized.
    public var description: String { TerminalProfile(capabilities: self).report }

    /// "no", or "yes" with tmux's version and whether it draws sixel itself.
    var tmuxLine: String {
        guard inTmux else { return "no" }
        return "yes" + (tmuxVersion.map { ", \($0)" } ?? "") + (tmuxSixel ? ", draws sixel itself" : ", draws no sixel here")
            + (tmuxPassthrough ? ", passthrough on" : "")
            + (tmuxClient?.switchedPassthroughOn == true ? " (switched on for this pane)" : "")
            + (tmuxClient.map { ", outer terminal \($0.terminalType ?? "unnamed")\($0.drawsSixel ? " with sixel" : ", no sixel")" } ?? "")
    }
}
