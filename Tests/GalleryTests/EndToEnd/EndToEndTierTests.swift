import Foundation
import Testing

/// `make test` skips the end-to-end tier by its tag: a suite in this folder without the tag would
/// run real terminals in the fast tier (and its tool checks would be missing).
@Suite struct EndToEndTierTests {
    /// Unit suites that live next to the end-to-end ones (they start nothing).
    static let unitSuites: Set<String> = ["EndToEndTierTests", "OriginalSaverNameTests"]

    @Test func everySuiteInThisFolderIsInTheEndToEndTier() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var untagged: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            for (number, line) in lines.enumerated() where line.hasPrefix("@Suite") {
                let declaration = lines[number...].first { $0.contains("struct ") || $0.contains("class ") } ?? ""
                let name = declaration.components(separatedBy: CharacterSet.alphanumerics.inverted)
                    .drop { $0 != "struct" && $0 != "class" }.dropFirst().first ?? ""
                if !Self.unitSuites.contains(name), !line.contains(".endToEnd") { untagged.append("\(file): \(name)") }
            }
        }
        #expect(untagged.isEmpty, "suites without .endToEnd: \(untagged)")
        #expect(files.count > 10)
    }
}
