import Testing
import TerminalGraphics
import TerminalModel

/// The text layer (libvterm) and the image layer under hand-written sequences.
@Suite struct TerminalModelTests {
    /// 16×30 pixels (five bands of six): 2×2 cells of 8×16.
    static let sixel16x30 = "\u{1B}P0;1;0q\"1;1;16;30#0;2;100;0;0#0!16~-!16~-!16~-!16~-!16~\u{1B}\\"

    @Test func textGoesThroughLibvterm() {
        let terminal = TerminalModel(kind: .xterm, columns: 20, rows: 5)
        terminal.write("\u{1B}[2;3Hhi\u{1B}[1;31mX\u{1B}[0m")
        let snapshot = terminal.snapshot
        #expect(snapshot.line(1).hasPrefix("  hiX"))
        guard case .text(let x) = snapshot[4, 1] else { Issue.record("no text"); return }
        #expect(x.foreground == 0x100_0001)
        #expect(x.attributes & 1 == 1)
        #expect(terminal.cursor == (5, 1))
    }

    @Test func escapeSequencesSplitAcrossWritesAreJoined() {
        let terminal = TerminalModel(kind: .xterm, columns: 20, rows: 5)
        let bytes = Array("\u{1B}[3;4H".utf8) + Array(Self.sixel16x30.utf8) + Array("ok".utf8)
        for byte in bytes { terminal.write([byte]) }
        #expect(terminal.image(column: 3, row: 3) != nil)
        #expect(terminal.image(column: 4, row: 3) != nil)
        #expect(terminal.image(column: 5, row: 3) == nil)
        #expect(terminal.snapshot.line(2).hasPrefix("   ok"))  // the cursor did not move: "ok" erased row 0 of it
        #expect(terminal.snapshot.line(3).hasPrefix("   ▒▒ "))
    }

    @Test func sixelIsPlacedAtTheCursorWithItsCellSize() throws {
        let terminal = TerminalModel(kind: .xterm, columns: 20, rows: 10)
        terminal.write("\u{1B}[3;5H" + Self.sixel16x30)
        let fragment = try #require(terminal.image(column: 5, row: 3))
        #expect(fragment.dx == 1 && fragment.dy == 1)
        #expect(terminal.shownImages.values.first == 4)  // 16×32 px in 8×16 cells: 2×2
    }

    @Test func textAndEraseCharactersEraseSixelCellsInXtermButNotKitty() {
        let xterm = TerminalModel(kind: .xterm, columns: 20, rows: 10)
        xterm.write("\u{1B}[1;1H" + Self.sixel16x30 + "\u{1B}[1;1HA\u{1B}[2;2H\u{1B}1X")
        #expect(xterm.image(column: 0, row: 0) == nil)      // text over it
        #expect(xterm.image(column: 1, row: 0) != nil)
        #expect(xterm.image(column: 0, row: 1) != nil)
        xterm.write("\u{1B}[2;1H\u{1B}[2X")                  // ECH
        #expect(xterm.image(column: 0, row: 1) == nil && xterm.image(column: 1, row: 1) == nil)

        let kitty = TerminalModel(kind: .kitty, columns: 20, rows: 10)
        kitty.write("\u{1B}_Ga=t,f=24,s=16,v=32,i=7,q=2;AAAA\u{1B}\\\u{1B}[1;1H\u{1B}_Ga=p,i=7,p=1,c=2,r=2,C=1,q=2\u{1B}\\")
        kitty.write("\u{1B}[1;1HA\u{1B}[2;1H\u{1B}[2X")
        #expect(kitty.image(column: 0, row: 0) == ImageFragment(image: .kitty(7), placement: 1, dx: 0, dy: 0))
        #expect(kitty.image(column: 1, row: 1) != nil)
    }

    @Test func scrollsMoveSixelsButXtermsRecordComesBackAfterAReverseScroll() {
        for kind in [TerminalKind.xterm, .mlterm] {
            let terminal = TerminalModel(kind: kind, columns: 20, rows: 10)
            terminal.write("\u{1B}[5;1H" + Self.sixel16x30)
            terminal.write("\u{1B}[2S")
            #expect(terminal.image(column: 0, row: 2)?.dy == 0, "\(kind) forward")
            #expect(terminal.image(column: 0, row: 4) == nil, "\(kind) forward")
            terminal.write("\u{1B}[1;1H\u{1B}[4T")  // exposes rows 0-3; the image was at rows 2-3
            #expect(terminal.image(column: 0, row: 6)?.dy == 0, "\(kind) reverse: the pixels move")
            #expect(terminal.image(column: 0, row: 2) == nil)
            terminal.write("\u{1B}[9;1Hx")  // text below the exposed band
            if kind == .xterm {
                #expect(terminal.image(column: 0, row: 2)?.dy == 0, "xterm repaints the band from its unmoved record")
                #expect(terminal.image(column: 0, row: 6)?.dy == 0)
            } else {
                #expect(terminal.image(column: 0, row: 2) == nil, "\(kind)")
            }
        }
    }

    @Test func scrollRegionsMoveOnlyTheirRows() {
        let terminal = TerminalModel(kind: .mlterm, columns: 20, rows: 10)
        terminal.write("\u{1B}[1;1H" + Self.sixel16x30 + "\u{1B}[5;1H" + Self.sixel16x30)
        terminal.write("\u{1B}[4;9r\u{1B}[1S\u{1B}[r")
        #expect(terminal.image(column: 0, row: 0)?.dy == 0)  // above the region
        #expect(terminal.image(column: 0, row: 3)?.dy == 0)  // moved up inside it
        #expect(terminal.image(column: 0, row: 5) == nil)
    }

    @Test func kittyFreesUnplacedImagesOnAnUppercaseDelete() {
        let terminal = TerminalModel(kind: .kitty, columns: 20, rows: 10)
        let upload = { (id: Int) in "\u{1B}_Ga=t,f=24,s=8,v=16,i=\(id),q=2;AAAA\u{1B}\\" }
        let put = { (id: Int, p: Int) in "\u{1B}_Ga=p,i=\(id),p=\(p),c=1,r=1,C=1,q=2\u{1B}\\" }
        // Upload A, place it, delete the placement, then free B: A goes with it.
        terminal.write(upload(1) + upload(2) + "\u{1B}[1;1H" + put(1, 1) + "\u{1B}[1;3H" + put(2, 2))
        terminal.write("\u{1B}_Ga=d,d=i,i=1,p=1,q=2\u{1B}\\")
        #expect(terminal.kittyImages[1] != nil)
        terminal.write("\u{1B}_Ga=d,d=I,i=2,q=2\u{1B}\\")
        #expect(terminal.kittyImages.isEmpty)
        terminal.write("\u{1B}[1;1H" + put(1, 1))
        #expect(terminal.image(column: 0, row: 0) == nil)
        #expect(terminal.diagnostics.contains { $0.hasPrefix("ENOENT") })
    }

    @Test func kittyChunkedTransmissionAndFullScreenClear() {
        let terminal = TerminalModel(kind: .kitty, columns: 20, rows: 10)
        terminal.write("\u{1B}_Ga=t,f=24,s=16,v=16,i=9,m=1,q=2;AAAA\u{1B}\\")
        #expect(terminal.kittyImages[9] == nil)
        terminal.write("\u{1B}_Gm=0,q=2;AAAA\u{1B}\\\u{1B}[2;2H\u{1B}_Ga=p,i=9,p=3,C=1,q=2\u{1B}\\")
        #expect(terminal.image(column: 2, row: 1) == ImageFragment(image: .kitty(9), placement: 3, dx: 1, dy: 0))
        terminal.write("\u{1B}[3S")  // kitty moves placements with the text
        #expect(terminal.image(column: 1, row: 1) == nil)
        terminal.write("\u{1B}[H\u{1B}[2J")
        #expect(terminal.shownImages.isEmpty)
        #expect(terminal.kittyImages[9] != nil)  // the data stays
    }

    @Test func tmuxShowsNoBitmapsButHalfBlockText() {
        let terminal = TerminalModel(kind: .tmux, columns: 20, rows: 5)
        terminal.write(Self.sixel16x30 + "\u{1B}_Ga=T,i=1,s=8,v=8;AAAA\u{1B}\\\u{1B}[38;2;1;2;3;48;2;4;5;6m▀")
        #expect(terminal.shownImages.isEmpty)
        guard case .text(let cell) = terminal.snapshot[0, 0] else { Issue.record("no text"); return }
        #expect(cell.text == "▀" && cell.foreground == 0x010203 && cell.background == 0x040506)
    }

    /// tmux 3.5a keeps 9 images: a tenth frees the oldest, which shows until the pane is redrawn;
    /// text frees the images under it, an erase every image on its rows; the redraw comes once the
    /// program's output is read (`idle`).
    @Test func tmux35KeepsNineImagesAndRedrawsWhatItKeeps() {
        let terminal = TerminalModel(kind: .tmux35, columns: 40, rows: 10)
        for index in 0..<10 { terminal.write("\u{1B}[2;\(1 + 2 * index)H" + Self.sixel16x30) }
        terminal.idle()
        #expect((0..<10).allSatisfy { terminal.image(column: 2 * $0, row: 1) != nil })  // nothing redrawn yet
        terminal.write("\u{1B}[6;1Hx")
        terminal.idle()
        #expect(terminal.image(column: 0, row: 1) != nil)  // text elsewhere frees nothing
        terminal.write("\u{1B}[2;5H ")  // over the third image
        terminal.idle()
        #expect(terminal.image(column: 0, row: 1) == nil)  // the oldest, freed by the tenth
        #expect(terminal.image(column: 4, row: 1) == nil && terminal.image(column: 5, row: 1) == nil)
        #expect(terminal.shownImages.count == 1)  // one key: the same bytes at eight places
        #expect([2, 6, 8, 10, 12, 14, 16, 18].allSatisfy { terminal.image(column: $0, row: 1) != nil })
        terminal.write("\u{1B}[3;30H\u{1B}[1X")  // an erase on the images' second row, beside them
        terminal.idle()
        #expect(terminal.shownImages.isEmpty)
    }

    @Test func snapshotsCompareAsAPersonSees() {
        let a = TerminalModel(kind: .xterm, columns: 10, rows: 4), b = TerminalModel(kind: .xterm, columns: 10, rows: 4)
        a.write("abc")
        b.write("abd")
        #expect(a.snapshot.differences(from: b.snapshot).count == 1)
        #expect(a.snapshot.describeDifferences(from: b.snapshot).hasPrefix("1 cells differ: (2,0)"))
        b.write("\u{1B}[1;3Hc")
        #expect(a.snapshot == b.snapshot)
    }

    /// tmux in kitty 0.41: an upload through tmux's passthrough with a virtual placement, then
    /// placeholder text naming it (an id with a high byte, rows and columns past the marks libvterm's
    /// width table knows) shows the image's cells; text over them replaces them.
    @Test func placeholderCellsShowTheImageTheyName() {
        let terminal = TerminalModel(kind: .tmuxKitty, columns: 160, rows: 130)
        let id: UInt32 = 0x7899_8779
        let upload = Array("\u{1B}_Ga=T,U=1,i=\(id),f=32,s=8,v=8,c=150,r=120,q=2;AAAA\u{1B}\\".utf8)
        var wrapped = Array("\u{1B}Ptmux;".utf8)
        for byte in upload { wrapped += byte == 0x1B ? [0x1B, 0x1B] : [byte] }
        terminal.write(wrapped + Array("\u{1B}\\".utf8))
        let rows = KittyPlaceholders.rows(imageID: id, cells: CellSize(columns: 150, rows: 120))
        for (index, row) in rows.enumerated() { terminal.write(Array("\u{1B}[\(index + 1);3H".utf8) + row) }
        #expect(terminal.diagnostics.isEmpty, "\(terminal.diagnostics.prefix(3))")
        #expect(terminal.image(column: 2, row: 0) == ImageFragment(image: .kitty(id), dx: 0, dy: 0))
        #expect(terminal.image(column: 2 + 140, row: 115) == ImageFragment(image: .kitty(id), dx: 140, dy: 115))
        #expect(terminal.shownImages[.kitty(id)] == 150 * 120)
        terminal.write("\u{1B}[1;3Hxy")
        #expect(terminal.image(column: 2, row: 0) == nil && terminal.textCell(column: 2, row: 0).text == "x")
        #expect(terminal.image(column: 4, row: 0) == ImageFragment(image: .kitty(id), dx: 2, dy: 0))
    }
}
