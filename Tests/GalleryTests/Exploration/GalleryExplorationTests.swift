import Foundation
import PropertyBased
import TerminalModel
import Testing
import TestSupport
@testable import Gallery

/// Random exploration of the real frame loop against the terminal model: random sequences of keys,
/// load events and resizes for each terminal kind; once settled, the screen must equal the screen
/// after Ctrl-L and every visible final image must be shown (`ExplorationOracle`). A failure prints
/// its seed (`.fixedSeed(…)` reproduces it) and the shrunk sequence of steps.
@Suite(.serialized) struct GalleryExplorationTests {
    /// Sequences per terminal kind and run: 60 in `make test` (a debug build runs 14–25 a second per
    /// kind on this machine), 10 under a sanitizer; `SDG_EXPLORE_COUNT` overrides, for long runs.
    static let count = ProcessInfo.processInfo.environment["SDG_EXPLORE_COUNT"].flatMap(Int.init)
        ?? (Sanitizers.address || Sanitizers.thread ? 10 : 60)
    /// The kinds explored (`SDG_EXPLORE_KINDS=xterm,kitty` narrows them).
    static let kinds = ProcessInfo.processInfo.environment["SDG_EXPLORE_KINDS"].map { $0.split(separator: ",").compactMap { TerminalKind(rawValue: String($0)) } } ?? TerminalKind.allCases
    static let codes = Gen.int(in: 0...1999).array(of: 1...30)

    /// Every kind, xterm included since its reverse scroll repaints (issue 23 #2, the one known defect
    /// the exploration found within a few dozen sequences while it was open).
    @Test(arguments: kinds)
    func settledScreenEqualsFullRepaintAndShowsEveryFinalImage(kind: TerminalKind) async throws {
        try await explore(kind)
    }

    private func explore(_ kind: TerminalKind) async throws {
        let started = Date()
        let runs = Counter()
        await propertyCheck(count: Self.count, input: Self.codes) { codes in
            runs.value += 1
            let steps = codes.map(ExplorationStep.init(code:))
            let problem = try ExplorationOracle.explore(kind, steps)
            #expect(problem == nil, "\(kind) after [\(steps.map(\.description).joined(separator: " "))]: \(problem ?? "")")
        }
        print("exploration \(kind): \(runs.value) sequences in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }
}

/// Counts runs inside a property check (its body is not `Sendable`-checked: one task at a time).
final class Counter: @unchecked Sendable {  // touched by the one task running the property check
    var value = 0
}
