import Foundation
import Testing
import TestSupport

/// Issue 30: `--print` read its whole list before writing anything (twelve million lines on
/// standard input held 1.7 GB after 15 s). It streams now: the sheet's first row is written while
/// the list is still arriving, and the memory held does not grow with the number of lines.
@Suite(.endToEnd, EndToEnd.needs(.convert))
struct StreamingPrintTests {
    @Test(.timeLimit(.minutes(2)))
    func theFirstRowIsWrittenWhileTheListStillArrives() async throws {
        let dir = try Fixtures.temporaryDirectory("print-stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await EndToEnd.makeImagesAsync(in: dir, [("red.png", "#ff0000")])
        let process = Process()
        process.executableURL = EndToEnd.binary
        process.arguments = ["--print", "--columns", "3", "--colors", "truecolor", "-"]
        process.currentDirectoryURL = dir
        process.environment = ChildProcess.testEnvironment.merging(["COLUMNS": "90"]) { $1 }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // One row's worth and a bad line, then nothing: the pipe stays open.
        input.fileHandleForWriting.write(Data("red.png First\nred.png Second\nred.png Third\nftp://x/y\nred.png Fourth\n".utf8))
        let fd = output.fileHandleForReading.fileDescriptor
        let written = try await Blocking.run { () -> String in
            var seen = Data()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline && !String(decoding: seen, as: UTF8.self).contains("Third") {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 200) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { break }
                seen.append(contentsOf: buffer[0..<count])
            }
            return String(decoding: seen, as: UTF8.self)
        }
        #expect(written.contains("First") && written.contains("Third"), "no row before the list ended: \(written.suffix(200))")
        #expect(!written.contains("Fourth"), "the second row came before its entries could be complete")
        #expect(process.isRunning, "it ended before its input did")
        input.fileHandleForWriting.closeFile()
        let rest = try await Blocking.run { () -> Data in
            var all = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { return all }
                all.append(contentsOf: buffer[0..<count])
            }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: rest, as: UTF8.self).contains("Fourth"))
    }
}
