import Foundation
import Testing
@testable import Gallery
import ImageCodecs
import TerminalGraphics

@Suite struct URLListTests {
    let base = URL(fileURLWithPath: "/lists", isDirectory: true)

    @Test func parsesURLsTitlesCommentsAndBlankLines() {
        let text = """
        # my photos
        https://example.org/a.jpg   Sunset over the sea\t
        \t
        http://example.org/b.png
          # indented comment
        photos/c.gif Cat
        /abs/d.webp
        file:///tmp/e.jpg Local file
        ~/f.png
        """
        let list = URLList.parse(text, baseDirectory: base, home: "/home/me")
        #expect(list.diagnostics.isEmpty)
        #expect(list.entries.map(\.line) == [2, 4, 6, 7, 8, 9])
        #expect(list.entries[0].location == .remote(URL(string: "https://example.org/a.jpg")!))
        #expect(list.entries[0].title == "Sunset over the sea")
        #expect(list.entries[1].title == nil)
        #expect(list.entries[1].displayName == "b.png")
        #expect(list.entries[2].location == .file(path: "/lists/photos/c.gif"))
        #expect(list.entries[2].title == "Cat")
        #expect(list.entries[3].location == .file(path: "/abs/d.webp"))
        #expect(list.entries[4].location == .file(path: "/tmp/e.jpg"))
        #expect(list.entries[4].title == "Local file")
        #expect(list.entries[5].location == .file(path: "/home/me/f.png"))
    }

    @Test func badLinesAreReportedWithLineNumbersAndTheRestLoads() {
        let text = "ftp://example.org/a.jpg\nhttps://ok.example/1.jpg\njavascript:alert(1)\nhttp://\nfile://otherhost/x.jpg\nhttps://ok.example/2.jpg\r\n"
        let list = URLList.parse(text, baseDirectory: base)
        #expect(list.entries.map(\.line) == [2, 6])
        #expect(list.diagnostics.map(\.line) == [1, 3, 4, 5])
        #expect(list.diagnostics[0].problem == .unsupportedScheme("ftp"))
        #expect(list.diagnostics[1].problem == .unsupportedScheme("javascript"))
        #expect(list.diagnostics[2].problem == .malformedURL)
        #expect(list.diagnostics[3].problem == .remoteFileURL(host: "otherhost"))
        #expect(list.diagnostics[0].description == "line 1: unsupported scheme 'ftp': ftp://example.org/a.jpg")
        #expect(list.entries[1].location == .remote(URL(string: "https://ok.example/2.jpg")!))
    }

    @Test func hostileTitlesAndURLsNeverCarryControlCharacters() {
        let text = "https://e.example/a.jpg \u{1B}]0;pwned\u{07}Title\u{1B}[2J\u{9B}31m\u{202E}gnp.exe\n"
            + "https://e.example/b\u{1B}[31m.jpg nice\n"
            + "https://e.example/\u{00}.jpg\n"
            + String(repeating: "x", count: URLList.maximumLineLength + 1) + "\n"
        let list = URLList.parse(text, baseDirectory: base)
        #expect(list.entries.count == 1)
        let title = list.entries[0].title ?? ""
        #expect(title == "Titlegnp.exe")  // whole escape sequences go, not only their ESC
        #expect(!title.unicodeScalars.contains { TerminalText.isUnsafe($0) })
        #expect(list.diagnostics.map(\.problem) == [.controlCharacters, .controlCharacters, .lineTooLong(URLList.maximumLineLength + 1)])
        for diagnostic in list.diagnostics {
            #expect(!diagnostic.description.unicodeScalars.contains { TerminalText.isUnsafe($0) })
        }
    }

    @Test func nonASCIIURLsArePercentEncodedAndNamesDecoded() {
        let list = URLList.parse("https://example.org/photos/été 日本\n", baseDirectory: base)
        #expect(list.entries.count == 1)
        #expect(list.entries[0].location.url.absoluteString == "https://example.org/photos/%C3%A9t%C3%A9")
        #expect(list.entries[0].displayName == "日本")
        #expect(list.entries[0].location.fileName == "été")
    }

    @Test func dotSegmentsInPathsAreResolved() {
        let list = URLList.parse("../up/a.jpg\n./b.jpg\n", baseDirectory: URL(fileURLWithPath: "/lists/sub", isDirectory: true))
        #expect(list.entries.map(\.location) == [.file(path: "/lists/up/a.jpg"), .file(path: "/lists/sub/b.jpg")])
    }

    @Test func byteOrderMarkAndCRLFAreHandled() {
        let list = URLList.parse("\u{FEFF}https://e.example/a.jpg A\r\nhttps://e.example/b.jpg\r\n", baseDirectory: base)
        #expect(list.entries.map(\.title) == ["A", nil])
        #expect(list.diagnostics.isEmpty)
    }

    @Test func loadsFromStandardInputAndFiles() throws {
        let stdin = try URLListIndex.load(path: "-", readStandardInput: { Data("a.jpg\nhttps://e.example/b.jpg B\n".utf8) }).parsedList
        #expect(stdin.entries.count == 2)
        let cwd = FileManager.default.currentDirectoryPath
        #expect(stdin.entries[0].location == .file(path: URLList.normalized(cwd + "/a.jpg")))

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("urllist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("list.txt")
        try Data("pics/x.png\n".utf8).write(to: file)
        let list = try URLListIndex.load(path: file.path).parsedList
        #expect(list.entries.map(\.location) == [.file(path: dir.path + "/pics/x.png")])
    }

    @Test func unreadableFilesGiveClearErrors() {
        #expect(throws: URLListLoadError(path: "/nonexistent/list.txt", reason: "No such file or directory")) {
            try URLListIndex.load(path: "/nonexistent/list.txt")
        }
        #expect(throws: URLListLoadError(path: "/tmp", reason: "is a directory")) {
            try URLListIndex.load(path: "/tmp")
        }
    }

    /// Issue 30: a rejected line printed its password on standard error and in its cell.
    @Test func aRejectedLineNeverShowsItsPassword() {
        let list = URLList.parse("ftp://alice:s3cret@host.example/a.jpg Title\nhttps://bob:hunter2@x.example:8443/b.png\n",
                                 baseDirectory: URL(fileURLWithPath: "/tmp"))
        let texts = list.diagnostics.map(\.description)
        #expect(texts.count == 1 && texts[0].contains("ftp://alice:***@host.example/a.jpg"), "\(texts)")
        #expect(!texts.joined().contains("s3cret"))
        #expect(URLListDiagnostic.redactingPasswords("see http://u:p@h/ and https://v@w/x and a://b:c@d")
                == "see http://u:***@h/ and https://v@w/x and a://b:***@d")
        // `y` copies the URL without its user:password@ (OSC 52 goes through tmux and the terminal).
        let items = [GalleryItem(entry: URLListEntry(line: 1, location: .remote(URL(string: "https://bob:hunter2@x.example/b.png")!)))]
        var model = GalleryModel(items: items, terminal: CellSize(columns: 80, rows: 24), cellPixels: PixelSize(width: 8, height: 16))
        #expect(model.perform(.copyURL).copy == "https://x.example/b.png")
    }
}
