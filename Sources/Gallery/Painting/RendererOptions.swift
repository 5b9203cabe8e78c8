import Foundation
import TerminalGraphics

extension ColorChoice {
    /// The TerminalGraphics colour depth of this `--colors` choice.
    var depth: ColorDepth {
        switch self {
        case .truecolor: return .truecolor
        case .palette256: return .color256
        case .basic16: return .color16
        }
    }
}

extension ColorChoice {
    /// The `--colors` choice of a probed colour depth; nil for monochrome.
    init?(_ depth: ColorDepth) {
        switch depth {
        case .truecolor: self = .truecolor
        case .color256: self = .palette256
        case .color16: self = .basic16
        case .mono: return nil
        }
    }
}

extension RendererChoice {
    /// The TerminalGraphics renderer option of this `--renderer` choice.
    var option: RendererOption {
        switch self {
        case .auto: return .auto
        case .sixel: return .sixel
        case .kitty: return .kitty
        case .blocks: return .halfBlock
        case .ascii: return .ascii
        }
    }
}

extension TerminalCapabilities {
    /// These capabilities with the user's `--colors` applied.
    func applying(_ options: GalleryOptions) -> TerminalCapabilities {
        var caps = self
        if let colors = options.colors { caps.colorDepth = colors.depth }
        return caps
    }

    /// Capabilities from the environment alone (no tty to ask).
    static func fromEnvironment() -> TerminalCapabilities {
        resolve(probe: ProbeResult(status: .notRun), environment: ProcessInfo.processInfo.environment)
    }
}
