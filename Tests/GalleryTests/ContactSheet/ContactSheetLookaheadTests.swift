import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import Gallery

/// The contact sheet starts loads ahead of the row it writes, never more than its lookahead at once,
/// and still writes rows in list order.
@Suite struct ContactSheetLookaheadTests {
    @Test func loadsRunAheadBoundedAndRowsComeOutInOrder() async throws {
        let entries = (0..<12).map { URLListEntry(line: $0 + 1, location: .remote(URL(string: "https://e.example/\($0).png")!), title: "T\($0)") }
        let log = Locked((running: 0, peak: 0, startedBeforeFirstDone: 0, firstDone: false))
        let load: @Sendable (URLListEntry, PixelSize?) -> Result<(Image, ImageDetails), LoadFailure> = { entry, _ in
            log.withLock { state in
                state.running += 1
                state.peak = max(state.peak, state.running)
                if !state.firstDone { state.startedBeforeFirstDone += 1 }
            }
            // Entry 0 is the slow one: it ends only once four others have started (or after 10 s, when
            // the sheet made them wait for it: then the check below fails). No fixed timing.
            if entry.line == 1 {
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline, log.withLock({ $0.startedBeforeFirstDone }) < 5 { usleep(1000) }
            }
            log.withLock { state in
                state.running -= 1
                if entry.line == 1 { state.firstDone = true }
            }
            return .failure(LoadFailure(message: "fail \(entry.line)"))
        }
        var configured = ContactSheet(width: 60, columns: 2, depth: nil)
        configured.lookahead = 6
        let sheet = configured
        let output = try await Blocking.run { () -> String in
            var out = ""
            _ = sheet.render(entries, load: load) { out += $0 }
            return out
        }
        let state = log.withLock { $0 }
        #expect(state.peak <= 6, "more loads at once than the lookahead: \(state.peak)")
        #expect(state.startedBeforeFirstDone >= 4, "loads waited for the slow first row: \(state.startedBeforeFirstDone)")
        let positions = (0..<12).compactMap { output.range(of: "T\($0)")?.lowerBound }
        #expect(positions.count == 12 && positions == positions.sorted(), "rows out of order")
    }
}
