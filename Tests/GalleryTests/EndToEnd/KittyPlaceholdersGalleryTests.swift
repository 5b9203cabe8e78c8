import Foundation
import Testing
import TerminalGraphics
import TestSupport

/// Issue 29: pictures inside tmux in the terminals users have. tmux 3.5a lists sixel in its DA1 but
/// draws a sixel only where the outer terminal can, and "SIXEL IMAGE (39x13)" text boxes elsewhere;
/// kitty ≥ 0.28 outside tmux draws kitty's Unicode placeholders (text that tmux keeps, so far more
/// than tmux's 9 sixel images). kitty 0.41 and its tmux come from the Debian 13 root
/// (`DebianRoot`, scripts/setup --e2e); each test skips with the reason when its parts are missing.
@Suite(.endToEnd, EndToEnd.needs(.convert), .serialized)
struct KittyPlaceholdersGalleryTests {
    static var kitty041Missing: String? {
        DebianRoot.installed ? GraphicalTerminal.missingTools(for: .kitty041) : "no Debian 13 root with kitty 0.41 (scripts/setup --e2e)"
    }

    /// The pane's text, read with tmux 3.5a (the same protocol as the root's tmux; the socket is in /tmp).
    static func pane(_ socket: String) -> String {
        (try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "capture-pane", "-p", "-t", "0"], timeout: 10).out) ?? ""
    }

    /// The pane's text, expected free of tmux's "SIXEL IMAGE" text boxes.
    static func paneWithoutTextBoxes(_ socket: String, in label: String) -> String {
        let pane = pane(socket)
        #expect(!pane.contains("SIXEL IMAGE"), "tmux drew text boxes in \(label): \(pane)")
        return pane
    }

    /// Expects the mixed list's image colours on `shot` (more than 5% of the grid's part).
    static func expectPictures(on shot: String, in label: String) throws {
        let share = try ScreenOracle.imageShare(shot, crop: "1200x600+0+0")
        #expect(share > 0.05, "the images are not on screen in \(label) (\(share) of the grid in their colours)")
    }

    /// tmux 3.5a inside kitty 0.41: the gallery draws Unicode placeholders (the pane's text holds
    /// U+10EEEE cells, never a text box), far more than tmux's 9 sixel images are on screen, the
    /// images are there in the screenshot, and after paging and rows both ways the settled screen
    /// equals the one after Ctrl-L.
    @Test(.timeLimit(.minutes(4)))
    func tmuxInKitty041DrawsPlaceholdersAndSettlesAsARepaint() async throws {
        if let missing = Self.kitty041Missing ?? (TmuxReach.tmux35Installed ? nil : "no tmux 3.5a (scripts/setup)") {
            print("skipped: \(missing)")
            return
        }
        let socket = "sdg-kph-\(UUID().uuidString.prefix(8))"
        defer { _ = try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "kill-server"], timeout: 10) }
        try await ScreenOracle.afterKeys(.kitty041, keys: [["Next", "Next", "Prior"], ["j", "j", "j"], ["k", "k", "k", "k", "k"]],
                                         label: "tmux-kitty041", inspect: { shot in
            let pane = Self.paneWithoutTextBoxes(socket, in: "kitty 0.41")
            #expect(pane.unicodeScalars.contains(KittyPlaceholders.placeholder), "no placeholder cells in the pane: \(pane)")
            let captions = pane.split(separator: "\n").flatMap { $0.split(separator: " ").filter { $0.hasPrefix("Item") } }
            #expect(captions.count > TmuxImages.knownLimit, "\(captions.count) cells on screen: \(pane)")
            try Self.expectPictures(on: shot, in: "tmux in kitty 0.41")
        }, wrap: {
            // The root's tmux (a server of its own on a private socket, passthrough off as by default:
            // the gallery switches it on for its pane). No status line: its clock would change the screen.
            "tmux -L \(socket) -f /dev/null new-session '\($0)' \\; set -g status off"
        })
    }

    /// kitty 0.41 alone: direct placements (placeholders are chosen only inside tmux), settled ==
    /// Ctrl-L after the same keys.
    @Test(.timeLimit(.minutes(4)))
    func kitty041AloneSettlesAsARepaint() async throws {
        if let missing = Self.kitty041Missing { print("skipped: \(missing)"); return }
        try await ScreenOracle.afterKeys(.kitty041, keys: [["Next", "Next", "Prior"], ["j", "j", "j"], ["k", "k", "k", "k", "k"]],
                                         label: "kitty041", inspect: { try Self.expectPictures(on: $0, in: "kitty 0.41") })
    }

    /// tmux 3.5a inside terminals without sixel (kitty 0.26 of Debian 12, GNOME Terminal): before,
    /// every cell held a "SIXEL IMAGE (39x13)" box; now half blocks show the pictures.
    @Test(.timeLimit(.minutes(4)), arguments: [GraphicalTerminal.Kind.kitty, .gnomeTerminal])
    func tmux35InATerminalWithoutSixelShowsPicturesNotTextBoxes(in kind: GraphicalTerminal.Kind) async throws {
        if let missing = GraphicalTerminal.missingTools(for: kind) ?? (TmuxReach.tmux35Installed ? nil : "no tmux 3.5a (scripts/setup)") {
            print("skipped \(kind): \(missing)")
            return
        }
        let socket = "sdg-kph-\(UUID().uuidString.prefix(8))"
        defer { _ = try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "kill-server"], timeout: 10) }
        try await ScreenOracle.afterKeys(kind, keys: [["Next", "Prior"], ["j", "j"]], label: "tmux35-nosixel", inspect: { shot in
            let pane = Self.paneWithoutTextBoxes(socket, in: "\(kind)")
            #expect(pane.contains("▀") || pane.contains("▄"), "no half blocks in \(kind): \(pane)")
            try Self.expectPictures(on: shot, in: "\(kind)")
        }, wrap: {
            "\(TmuxReach.tmux35) -L \(socket) -f /dev/null new-session '\($0)' \\; set -g status off"
        })
    }

    /// `--print` inside tmux in kitty 0.41, and outside tmux with `--renderer kitty-placeholders`:
    /// the sheet's images are uploaded first, then written as placeholder text, and are on screen.
    @Test(.timeLimit(.minutes(3)))
    func printedSheetsShowPlaceholderImages() async throws {
        if let missing = Self.kitty041Missing ?? (TmuxReach.tmux35Installed ? nil : "no tmux 3.5a (scripts/setup)") {
            print("skipped: \(missing)")
            return
        }
        let dir = try Fixtures.temporaryDirectory("kitty041-print")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ScreenOracle.mixedList(in: dir, count: 8)
        let socket = "sdg-kph-\(UUID().uuidString.prefix(8))"
        defer { _ = try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "kill-server"], timeout: 10) }
        let sdgallery = "XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --print --columns 4"
        for (label, command) in [("direct", "\(sdgallery) --renderer kitty-placeholders list.txt; sleep 60"),
                                 ("tmux", "tmux -L \(socket) -f /dev/null new-session '\(sdgallery) list.txt; sleep 60' \\; set -g status off")] {
            let share = try await Blocking.run { () throws -> Double in
                let terminal = try GraphicalTerminal(kind: .kitty041, command: command, directory: dir.path, size: (120, 36))
                defer { terminal.stop() }
                let shot = dir.appendingPathComponent("print-\(label).png").path
                var share = 0.0
                _ = GraphicalTerminal.waitUntil(timeout: 30) {
                    (try? terminal.screenshot(to: shot)) != nil && { share = (try? ScreenOracle.imageShare(shot, crop: "1200x600+0+0")) ?? 0; return share > 0.05 }()
                }
                ScreenOracle.keep([shot])
                return share
            }
            #expect(share > 0.05, "\(label): the sheet's images are not on screen (\(share))")
            if label == "tmux" {
                #expect(Self.pane(socket).unicodeScalars.contains(KittyPlaceholders.placeholder), "no placeholder cells in the pane")
            }
        }
    }
}
