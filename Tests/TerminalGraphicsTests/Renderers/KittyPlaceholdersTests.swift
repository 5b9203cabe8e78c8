import Foundation
import Testing
@testable import TerminalGraphics
import ImageCodecs

/// kitty's Unicode placeholders (issue 29): the encoding against kitty's documented rules and
/// examples, and the renderer's output in placeholder mode.
@Suite struct KittyPlaceholdersTests {
    /// The table is kitty's: the combining marks of class 230 in Unicode 6.0 without a decomposition,
    /// less the 19 that normalization may fuse with a letter (kitty's rowcolumn-diacritics.txt).
    @Test func theDiacriticsFollowKittysRule() {
        let fused: Set<UInt32> = [0x0300, 0x0301, 0x0302, 0x0303, 0x0304, 0x0306, 0x0307, 0x0308, 0x0309, 0x030A, 0x030B,
                                  0x030C, 0x030F, 0x0311, 0x0313, 0x0314, 0x0342, 0x0653, 0x0654]
        var derived: [UInt32] = []
        for value in UInt32(0)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), !fused.contains(value) else { continue }
            let properties = scalar.properties
            guard properties.generalCategory == .nonspacingMark, properties.canonicalCombiningClass == .above,
                  let age = properties.age, (age.major, age.minor) <= (6, 0),
                  String(Character(scalar)).decomposedStringWithCompatibilityMapping.unicodeScalars.map(\.value) == [value]
            else { continue }
            derived.append(value)
        }
        #expect(derived == KittyPlaceholders.diacritics)
        #expect(KittyPlaceholders.diacritics.count == 297)
        #expect(Array(KittyPlaceholders.diacritics.prefix(3)) == [0x0305, 0x030D, 0x030E])
    }

    /// kitty's example: an image of 3×2 cells, row 0 marked U+0305, row 1 U+030D; columns 0, 1, 2
    /// marked U+0305, U+030D, U+030E; the id in the 24-bit foreground; attributes reset after.
    @Test func rowsCarryTheIdInTheColourAndRowAndColumnMarks() {
        let rows = KittyPlaceholders.rows(imageID: 0x2A_0102, cells: CellSize(columns: 3, rows: 2))
        #expect(rows.count == 2)
        let cell = "\u{10EEEE}"
        #expect(String(decoding: rows[0], as: UTF8.self)
                == "\u{1B}[38;2;42;1;2m" + cell + "\u{0305}\u{0305}" + cell + "\u{0305}\u{030D}" + cell + "\u{0305}\u{030E}" + "\u{1B}[0m")
        #expect(String(decoding: rows[1], as: UTF8.self)
                == "\u{1B}[38;2;42;1;2m" + cell + "\u{030D}\u{0305}" + cell + "\u{030D}\u{030D}" + cell + "\u{030D}\u{030E}" + "\u{1B}[0m")
        // The id's high byte is a third mark on every cell (kitty reads the id's most significant
        // byte from it: 3 is the fourth mark, U+0310).
        let high = String(decoding: KittyPlaceholders.rows(imageID: 0x0300_0001, cells: CellSize(columns: 2, rows: 1))[0], as: UTF8.self)
        #expect(high == "\u{1B}[38;2;0;0;1m" + cell + "\u{0305}\u{0305}\u{0310}" + cell + "\u{0305}\u{030D}\u{0310}" + "\u{1B}[0m")
    }

    @Test func placeholdersAreDrawnByKittyFrom028AndGhostty() {
        for name in ["kitty(0.28.0)", "kitty(0.41.1)", "kitty(1.0.0)", "ghostty 1.1.3"] { #expect(KittyPlaceholders.supported(by: name), "\(name)") }
        for name in ["kitty(0.26.5)", "kitty(0.27.9)", "XTerm(379)", "WezTerm 20240203", "kitty", "", nil] as [String?] {
            #expect(!KittyPlaceholders.supported(by: name), "\(String(describing: name))")
        }
    }

    /// In placeholder mode the upload also makes the virtual placement (`a=T,U=1` with the covered
    /// cells), the picture is text rows of placeholders, and nothing is placed by id or deleted.
    @Test func theRendererUploadsAVirtualPlacementAndWritesPlaceholderText() throws {
        var renderer = KittyRenderer(tmuxPassthrough: true)
        renderer.placeholders = true
        #expect(renderer.identity.kind == .kittyPlaceholders)
        let image = TestImages.photo(width: 64, height: 32)
        let out = try renderer.render(image, cells: CellSize(columns: 10, rows: 5), cellPixelSize: PixelSize(width: 8, height: 16))
        #expect(out.kind == .kittyPlaceholders && out.erase.isEmpty && !out.cells.isEmpty)
        let upload = try #require(out.upload)
        let sent = String(decoding: upload.bytes, as: UTF8.self)
        #expect(upload.tmuxPassthrough && sent.hasPrefix("\u{1B}Ptmux;"))
        #expect(sent.contains("a=T,U=1,c=\(out.cells.columns),r=\(out.cells.rows),") && sent.contains("i=\(upload.id),"))
        #expect(out.rows == KittyPlaceholders.rows(imageID: upload.id, cells: out.cells))
        // On its own (a sheet, `positioned`): the upload, then the rows; never a placement by id.
        #expect(out.bytes.starts(with: upload.bytes) && !String(decoding: out.bytes, as: UTF8.self).contains("a=p"))
    }
}
