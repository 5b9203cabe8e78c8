import Foundation
import Testing
@testable import Gallery

@Suite struct URLListIndexTests {
    let base = URL(fileURLWithPath: "/lists", isDirectory: true)

    /// The index and the whole-text parser agree line for line, bad lines included.
    @Test func indexAgreesWithTheWholeTextParser() {
        let long = "https://e.example/" + String(repeating: "x", count: URLList.maximumLineLength + 10)
        let text = "\u{FEFF}# photos\r\nhttps://example.org/a.jpg   Sunset\t\r\n \t\r\n\n  # indented\nphotos/c.gif Cat\n"
            + "ftp://x/y\n\(long)\n~/f.png\nfile://other/z.jpg\n\r\r\nhttps://e.example/last.jpg Last"
        let whole = URLList.parse(text, baseDirectory: base, home: "/home/me")
        let index = URLListIndex(bytes: Data(text.utf8), baseDirectory: base, home: "/home/me")
        #expect(index.count == whole.entries.count + whole.diagnostics.count)
        #expect(index.parsedList == whole)
        #expect(whole.entries.map(\.line) == [2, 6, 9, 12])
        #expect(whole.diagnostics.map(\.line) == [7, 8, 10])  // line 11, "\\r\\r\\n", is blank to both
    }

    @Test func anEntryIsParsedOnlyFromItsOwnLine() throws {
        let text = "a.jpg First\n\n# c\nhttps://e.example/b.jpg\nnot a scheme://x\n"
        let index = URLListIndex(bytes: Data(text.utf8), baseDirectory: base, home: nil)
        #expect(index.count == 3)
        #expect(try index.entry(at: 0).get() == URLListEntry(line: 1, location: .file(path: "/lists/a.jpg"), title: "First"))
        #expect(try index.entry(at: 1).get().location == .remote(URL(string: "https://e.example/b.jpg")!))
        #expect(index.entry(at: 2) == .success(URLListEntry(line: 5, location: .file(path: "/lists/not"), title: "a scheme://x")))
    }

    /// A list over the old 64 MB cap maps and indexes; its last line is found without parsing the rest.
    @Test func listsLargerThanTheOldCapLoad() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("urlindex-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("big.txt")
        let line = "https://e.example/" + String(repeating: "p", count: 60) + ".jpg\n"  // 83 bytes
        let count = (65 << 20) / line.utf8.count + 1
        var data = Data(capacity: count * line.utf8.count + 32)
        let bytes = Data(line.utf8)
        for _ in 0..<count { data.append(bytes) }
        data.append(Data("https://e.example/end.jpg The end\n".utf8))
        try data.write(to: file)
        let index = try URLListIndex.load(path: file.path)
        #expect(index.count == count + 1)
        #expect(try index.entry(at: count).get().title == "The end")
        #expect(try index.entry(at: count).get().line == count + 1)
    }

    @Test func standardInputIsOneBuffer() throws {
        let index = try URLListIndex.load(path: "-", readStandardInput: { Data("x.png\n#c\ny.png T\n".utf8) })
        #expect(index.count == 2)
        #expect(try index.entry(at: 1).get().title == "T")
    }

    @Test func anEntryListRoundTripsThroughAnIndex() {
        let entries = [URLListEntry(line: 1, location: .remote(URL(string: "http://127.0.0.1:9/demo/a%20photo.jpg")!), title: "A photo"),
                       URLListEntry(line: 2, location: .file(path: "/tmp/with space.png"))]
        let list = URLListIndex(entries: entries).parsedList
        #expect(list.entries.map(\.location) == entries.map(\.location))
        #expect(list.entries.map(\.title) == ["A photo", nil])
    }
}
