import Foundation
import TerminalGraphics

extension TerminalCapabilities {
    /// These capabilities with the user's `--colors` applied.
    func applying(_ options: GalleryOptions) -> TerminalCapabilities {
        var caps = self
        if let colors = options.colors { caps.colorDepth = colors }
        return caps
    }

    /// Capabilities from the environment alone (no tty to ask).
    static func fromEnvironment() -> TerminalCapabilities {
        resolve(probe: ProbeResult(status: .notRun), environment: ProcessInfo.processInfo.environment)
    }
}
