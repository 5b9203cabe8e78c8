import Foundation
import Testing
import TestSupport

/// Issue 29: in mlterm, double-width titles of captions that were on screen stayed standing beside
/// the new text ("4 Gamma 5", "□ 1" of "ＦＵＬＬＷＩＤＴＨ 4", "普通の写真 1") after a grid → list
/// switch (1,003 px off the repaint here), a filter too in the field: mlterm's `ECH` over wide
/// characters does not erase the columns it names. Curses there gets no `ech` (it writes spaces).
@Suite(.endToEnd, EndToEnd.needs(.mlterm, .convert))
struct WideTitlesOracleTests {
    @Test(.timeLimit(.minutes(4)))
    func wideTitlesLeaveNothingAfterAFilterAndAViewSwitchInMlterm() async throws {
        try await ScreenOracle.check(.mlterm, label: "wide-titles", arguments: "list.txt", prepare: { dir in
            try await EndToEnd.makeImagesAsync(in: dir, [("red.png", "#e01010"), ("green.png", "#10c020"), ("blue.png", "#1030e0")],
                                               size: "200x150")
            let titles = ["日本語のタイトル", "普通の写真", "Alpha", "Beta", "ＦＵＬＬＷＩＤＴＨ", "Gamma", "漢字テスト", "Delta"]
            let lines = (0..<40).map { "\(["red.png", "green.png", "blue.png"][$0 % 3]) \(titles[$0 % titles.count]) \($0)" }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        }) { terminal, scratch in
            _ = try terminal.settledScreenshot(to: scratch)
            try terminal.type("/Alpha")
            try terminal.key("Return")
            _ = try terminal.settledScreenshot(to: scratch, interval: 0.7)
            try terminal.key("Escape")
            _ = try terminal.settledScreenshot(to: scratch, interval: 0.7)
            try terminal.key("v")
        }
    }
}
