import Foundation
import Gallery
import SafeText
import TerminalGraphics

/// The text targets: URL lists and terminal probe replies, both text from outside that must come
/// out structured and terminal-safe.
enum TextFuzzing {
    static func unsafe(_ text: String) -> Bool { text.unicodeScalars.contains(where: UntrustedText.isUnsafe) }

    /// `URLList.parse`: every entry and diagnostic on a real line, in order; titles, names and
    /// diagnostics terminal-safe; remote entries http(s) with a host; file paths absolute and
    /// normalised.
    static func urlList(_ data: Data) -> FuzzReport {
        var report = FuzzReport()
        let text = String(decoding: data, as: UTF8.self)
        let list = URLList.parse(text, baseDirectory: URL(fileURLWithPath: "/fuzz/base", isDirectory: true), home: "/home/fuzz")
        report.note("\(list.entries.count) entries, \(list.diagnostics.count) diagnostics")
        let lineCount = data.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let numbers = (list.entries.map(\.line) + list.diagnostics.map(\.line)).sorted()
        report.expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "two results for one line")
        report.expect(numbers.allSatisfy { (1...lineCount).contains($0) }, "a line number outside 1...\(lineCount)")
        for entry in list.entries {
            let where_ = "line \(entry.line)"
            if let title = entry.title {
                report.expect(!title.isEmpty && !unsafe(title), "\(where_): title \(title.debugDescription)")
                report.expect(title.trimmingCharacters(in: .whitespaces) == title, "\(where_): untrimmed title \(title.debugDescription)")
            }
            report.expect(!unsafe(entry.displayName), "\(where_): display name \(entry.displayName.debugDescription)")
            report.expect(!unsafe(entry.location.description), "\(where_): location \(entry.location.description.debugDescription)")
            switch entry.location {
            case .remote(let url):
                let scheme = url.scheme?.lowercased() ?? ""
                report.expect(scheme == "http" || scheme == "https", "\(where_): remote scheme \(scheme.debugDescription)")
                report.expect(!(url.host ?? "").isEmpty, "\(where_): remote URL without a host")
                report.expect(!unsafe(url.absoluteString) && !url.absoluteString.contains(" "), "\(where_): URL text \(url.absoluteString.debugDescription)")
            case .file(let path):
                report.expect(path.hasPrefix("/"), "\(where_): relative path \(path.debugDescription)")
                let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
                report.expect(path == "/" || !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." }, "\(where_): path not normalised \(path.debugDescription)")
            }
        }
        for diagnostic in list.diagnostics {
            report.expect(!unsafe(diagnostic.text) && !unsafe(diagnostic.description), "line \(diagnostic.line): diagnostic \(diagnostic.description.debugDescription)")
            report.expect(TerminalText.width(of: diagnostic.text) <= 80, "line \(diagnostic.line): diagnostic text wider than 80 columns")
        }
        return report
    }

    /// `ProbeReplyParser.parse`: values within their documented ranges, text terminal-safe, the same
    /// result from any collection type, and a `--probe` report without unsafe characters.
    static func probeReplies(_ data: Data) -> FuzzReport {
        var report = FuzzReport()
        let replies = ProbeReplyParser.parse(data)
        report.note("DA1 \(replies.deviceAttributes.map { "\($0)" } ?? "none"), version \(replies.terminalVersion?.debugDescription ?? "none")")
        report.expect(replies == ProbeReplyParser.parse([UInt8](data)), "Data and [UInt8] parse differently")
        if let version = replies.terminalVersion {
            report.expect(!version.isEmpty && !unsafe(version), "terminal version \(version.debugDescription)")
        }
        if let cell = replies.cellPixelSize {
            report.expect((1...1000).contains(cell.width) && (1...1000).contains(cell.height), "cell size \(cell)")
        }
        report.expect((replies.deviceAttributes ?? []).allSatisfy { (0...1_000_000).contains($0) }, "DA1 parameter out of range")
        if let mode = replies.syncOutputMode { report.expect((0...1_000_000).contains(mode), "DECRPM value \(mode)") }
        let caps = TerminalCapabilities.resolve(probe: ProbeResult(status: .answered, replies: replies), environment: ["TERM": "xterm-256color"])
        let lines = TerminalProfile(capabilities: caps, renderer: .auto).report.split(separator: "\n")
        report.expect(lines.allSatisfy { !unsafe(String($0)) }, "--probe report has unsafe characters")
        return report
    }
}
