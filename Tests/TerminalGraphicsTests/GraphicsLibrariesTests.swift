import Testing
@testable import TerminalGraphics

@Suite struct GraphicsLibrariesTests {
    @Test func reportsSixelVersion() {
        #expect(GraphicsLibraries.sixelVersion.first?.isNumber == true)
    }
}
