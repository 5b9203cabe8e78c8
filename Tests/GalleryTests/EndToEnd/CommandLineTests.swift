import Foundation
import Testing
import TestSupport

@Suite(.endToEnd, EndToEnd.needs(.convert))
struct CommandLineTests {
    @Test func usageErrorsExitWithStatus2AndUnreadableListsWith1() async throws {
        let bin = EndToEnd.binary.path
        let noFile = try await Blocking.run { try EndToEnd.run(bin, []) }
        #expect(noFile.status == 2)
        #expect(noFile.err.contains("Usage: sdgallery"))
        #expect(try await Blocking.run { try EndToEnd.run(bin, ["--columns", "0", "x"]) }.status == 2)
        #expect(try await Blocking.run { try EndToEnd.run(bin, ["--renderer", "svg", "x"]) }.status == 2)
        #expect(try await Blocking.run { try EndToEnd.run(bin, ["--header", "nocolon", "x"]) }.status == 2)
        #expect(try await Blocking.run { try EndToEnd.run(bin, ["--user", "u", "x"]) }.status == 2)
        let animate = try await Blocking.run { try EndToEnd.run(bin, ["--animate", "sometimes", "x"]) }
        #expect(animate.status == 2)
        #expect(animate.err.contains("--animate 'sometimes' is not off, on or a rate (e.g. 500k)."))
        let missing = try await Blocking.run { try EndToEnd.run(bin, ["/nonexistent/list.txt"]) }
        #expect(missing.status == 1)
        #expect(missing.err == "sdgallery: cannot read '/nonexistent/list.txt': No such file or directory\n")
        let version = try await Blocking.run { try EndToEnd.run(bin, ["--version"]) }
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("sdgallery "))
    }

    @Test func printWritesAContactSheetWithTheImagesColoursAndReportsBadLines() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-print")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await EndToEnd.makeImagesAsync(in: dir, [("red.png", "#ff0000"), ("blue.png", "#0000ff")])
        let list = dir.appendingPathComponent("list.txt")
        try Data("red.png Red one\nftp://nope/x.png\nblue.png\nmissing.png\n".utf8).write(to: list)
        let result = try await Blocking.run { try EndToEnd.run(EndToEnd.binary.path, ["--print", "--colors", "truecolor", "--columns", "3", list.path]) }
        #expect(result.status == 0)
        #expect(result.err.contains("line 2: unsupported scheme 'ftp'"))
        #expect(result.out.contains("Red one"))
        #expect(result.out.contains("blue.png"))
        #expect(result.out.contains("✗ file not found"))
        if EndToEnd.codecsDecode(dir.appendingPathComponent("red.png")) {
            #expect(result.out.contains("\u{1B}[38;2;255;0;0;48;2;255;0;0m▀"))
            #expect(result.out.contains("\u{1B}[38;2;0;0;255;48;2;0;0;255m▀"))
            #expect(result.out.contains("320×240"))
        } else {
            #expect(result.out.contains("unsupported format"))
        }
        // Not a tty and no --print: the same sheet. TERM=dumb would give captions only (tested in-process).
        let piped = try await Blocking.run { try EndToEnd.run(EndToEnd.binary.path, ["--colors", "truecolor", "--columns", "3", list.path]) }
        #expect(piped.out == result.out)
        // `--colors mono`: no colour at all, so ASCII, not 16-colour half blocks.
        let mono = try await Blocking.run { try EndToEnd.run(EndToEnd.binary.path, ["--print", "--colors", "mono", "--columns", "3", list.path]) }
        #expect(mono.status == 0 && mono.out.contains("Red one"))
        #expect(!mono.out.contains("▀") && !mono.out.contains("\u{1B}["), "\(mono.out.prefix(200))")
    }
}

@Suite(.endToEnd, EndToEnd.needs())
struct ManPageTests {
    @Test func manPageDocumentsEveryOptionOfTheHelpAndEveryKey() async throws {
        let help = try await Blocking.run { try EndToEnd.run(EndToEnd.binary.path, ["--help"]) }.out
        let man = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("man/sdgallery.1"), encoding: .utf8)
        let options = Set(help.split(whereSeparator: { !($0.isLetter || $0 == "-") }).filter { $0.hasPrefix("--") && $0.count > 2 })
        #expect(options.count >= 25)
        for option in options {
            let roff = option.replacingOccurrences(of: "-", with: "\\-")
            #expect(man.contains(roff), "man page misses \(option)")
        }
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            #expect(man.contains(".SH \(section)"))
        }
        for key in ["PgDn", "PgUp", "Home", "End", "Enter", "Esc", "Ctrl\\-C", "Ctrl\\-L"] { #expect(man.contains(key), "\(key)") }
    }
}
