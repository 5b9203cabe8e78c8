import Foundation

/// A real HTTP proxy (Debian's tinyproxy) on loopback, logging every request that passes through it,
/// so tests can see that downloads went through the proxy. Started as a daemon with its own config;
/// `stop()` (or deinit) ends it.
public final class TinyProxy: Sendable {
    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Its directory (config, log, pid).
    public let directory: URL

    private init(port: Int, directory: URL) {
        self.port = port
        self.directory = directory
    }

    /// Whether tinyproxy is installed.
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tinyproxy") }

    /// Starts a proxy that lets 127.0.0.1 through.
    public static func start() throws -> TinyProxy {
        let directory = try Fixtures.temporaryDirectory("sdgallery-tinyproxy")
        // tinyproxy may drop to another user: let it write its log and pid file here.
        chmod(directory.path, 0o777)
        let port = try LocalPort.free()
        let d = directory.path
        let config = """
        Port \(port)
        Listen 127.0.0.1
        Timeout 30
        LogFile "\(d)/tinyproxy.log"
        LogLevel Info
        PidFile "\(d)/tinyproxy.pid"
        MaxClients 20
        Allow 127.0.0.1
        ConnectPort \(port)
        ConnectPort 443

        """
        let file = directory.appendingPathComponent("tinyproxy.conf")
        try Data(config.utf8).write(to: file)
        let result = try ChildProcess.run("/usr/bin/tinyproxy", ["-c", file.path], timeout: 30)
        guard result.status == 0 else { throw NginxServer.SetupError(description: "tinyproxy: \(result.err)") }
        let proxy = TinyProxy(port: port, directory: directory)
        guard LocalPort.waitUntilListening(port, timeout: 15) else {
            proxy.stop()
            throw NginxServer.SetupError(description: "tinyproxy did not listen on \(port)")
        }
        return proxy
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The proxy's log.
    public var log: String { (try? String(contentsOf: directory.appendingPathComponent("tinyproxy.log"), encoding: .utf8)) ?? "" }

    /// Stops the proxy (idempotent).
    public func stop() {
        let pidFile = directory.appendingPathComponent("tinyproxy.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGTERM)
        try? FileManager.default.removeItem(at: pidFile)
    }
}
