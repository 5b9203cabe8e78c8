import Foundation

/// Runs the real `curl` command line against the loopback server and collects what it saw.
struct CurlCLI {
    struct Result {
        var exitCode: Int32
        var status: Int
        var headerText: String
        var body: Data
        var seconds: Double

        /// Header values by lowercased name, in order (the last response of a redirect chain).
        func headers(_ name: String) -> [String] {
            let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
            guard let last = blocks.last else { return [] }
            return last.components(separatedBy: "\r\n").dropFirst().compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                guard line[..<colon].lowercased() == name.lowercased() else { return nil }
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }

        /// The status line of the last response.
        var statusLine: String {
            headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.last?
                .components(separatedBy: "\r\n").first ?? ""
        }
    }

    static func run(_ url: URL, _ arguments: [String] = []) async throws -> Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("curlcli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let headerFile = dir.appendingPathComponent("headers")
        let bodyFile = dir.appendingPathComponent("body")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-D", headerFile.path, "-o", bodyFile.path, "-w", "%{http_code}",
                             "--max-time", "10"] + arguments + [url.absoluteString]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        // Wait through the termination handler: blocking a GCD worker in waitUntilExit() would take
        // one of the few workers the servers under test also need.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in done.resume() }
            do { try process.run() } catch { done.resume() }
        }
        let elapsed = ContinuousClock.now - start
        let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if ProcessInfo.processInfo.environment["CURLCLI_DEBUG"] != nil { print("curl", process.terminationStatus, code, url) }
        return Result(
            exitCode: process.terminationStatus,
            status: Int(code) ?? 0,
            headerText: (try? String(contentsOf: headerFile, encoding: .utf8)) ?? "",
            body: (try? Data(contentsOf: bodyFile)) ?? Data(),
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
    }
}

/// Byte equality without dumping the bytes into a failure message.
func same(_ a: Data, _ b: Data) -> Bool { a == b }
