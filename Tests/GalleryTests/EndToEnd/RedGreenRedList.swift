import Foundation
import TestSupport

/// The list several end-to-end suites show (`--print` and the grid): red, green, red, as 96×64 PNGs
/// in colours off the 256-colour palette (whose cube has 175 and 215, not 200): half blocks cannot
/// draw them, sixel registers and iTerm2's PNGs can. On screen, the images are there when red
/// pixels are about twice the green ones.
enum RedGreenRedList {
    /// Writes red.png, green.png and list.txt (their paths, red, green, red) into `dir`.
    static func write(in dir: URL) throws {
        try TestPNG.solid(width: 96, height: 64, rgba: (200, 30, 90, 255)).write(to: dir.appendingPathComponent("red.png"))
        try TestPNG.solid(width: 96, height: 64, rgba: (30, 200, 90, 255)).write(to: dir.appendingPathComponent("green.png"))
        let list = ["red.png", "green.png", "red.png"].map { dir.appendingPathComponent($0).path }.joined(separator: "\n")
        try Data((list + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
    }

    /// Whether `screen` shows the list: more than `minimumGreen` green pixels and twice as many red
    /// (within 10%).
    static func isShown(on screen: GraphicalTerminal.Histogram, minimumGreen: Int = 500) -> Bool {
        func near(_ a: UInt8, _ b: Int) -> Bool { abs(Int(a) - b) <= 4 }
        let red = screen.count { near($0.r, 200) && near($0.g, 30) && near($0.b, 90) }
        let green = screen.count { near($0.r, 30) && near($0.g, 200) && near($0.b, 90) }
        return green > minimumGreen && abs(red - 2 * green) * 10 < green
    }
}
