import Foundation

/// A real nginx (Debian's nginx-light) on loopback, serving a directory over HTTPS with HTTP/1.1 and
/// HTTP/2 (ALPN), with certificates made at test time by the `openssl` command. Its access log
/// records `$connection $server_protocol $request_uri $status` per request, so tests can count the
/// connections a set of downloads used. Started as a daemon from its own prefix directory; `stop()`
/// (or deinit) ends it.
public final class NginxServer: Sendable {
    /// Certificates made for one test.
    public struct Certificates: Sendable {
        /// The CA that signed the server certificate (nil for a self-signed one).
        public var authority: URL?
        /// The server certificate (PEM), for 127.0.0.1 and localhost.
        public var certificate: URL
        /// Its private key (PEM).
        public var key: URL
    }

    /// A failure to set up or start the server.
    public struct SetupError: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Its prefix directory (config, logs, pid).
    public let prefix: URL

    private init(port: Int, prefix: URL) {
        self.port = port
        self.prefix = prefix
    }

    /// Whether nginx and openssl are installed.
    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
    }

    /// Makes a server certificate in `directory`: self-signed, or signed by a new CA (`withAuthority`).
    public static func makeCertificates(in directory: URL, withAuthority: Bool) throws -> Certificates {
        func openssl(_ arguments: [String]) throws {
            let result = try ChildProcess.run("/usr/bin/openssl", arguments, timeout: 60)
            guard result.status == 0 else { throw SetupError(description: "openssl \(arguments.first ?? ""): \(result.err)") }
        }
        let path = { (name: String) in directory.appendingPathComponent(name) }
        let names = "subjectAltName=IP:127.0.0.1,DNS:localhost"
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        if !withAuthority {
            try openssl(["req", "-x509"] + ec + ["-keyout", path("key.pem").path, "-out", path("cert.pem").path,
                                               "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", names])
            return Certificates(authority: nil, certificate: path("cert.pem"), key: path("key.pem"))
        }
        try openssl(["req", "-x509"] + ec + ["-keyout", path("ca.key").path, "-out", path("ca.pem").path,
                                           "-days", "2", "-subj", "/CN=sdgallery test CA"])
        try openssl(["req"] + ec + ["-keyout", path("key.pem").path, "-out", path("server.csr").path, "-subj", "/CN=127.0.0.1"])
        try Data(names.utf8).write(to: path("ext.cnf"))
        try openssl(["x509", "-req", "-in", path("server.csr").path, "-CA", path("ca.pem").path, "-CAkey", path("ca.key").path,
                     "-CAcreateserial", "-out", path("cert.pem").path, "-days", "2", "-extfile", path("ext.cnf").path])
        return Certificates(authority: path("ca.pem"), certificate: path("cert.pem"), key: path("key.pem"))
    }

    /// Starts nginx serving `root` over TLS with `certificates`, offering HTTP/2 through ALPN unless
    /// `http2` is false (then HTTP/1.1 only).
    public static func start(root: URL, certificates: Certificates, http2: Bool = true) throws -> NginxServer {
        let prefix = try Fixtures.temporaryDirectory("sdgallery-nginx")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        let port = try LocalPort.free()
        let p = prefix.path
        let config = """
        worker_processes 1;
        pid \(p)/nginx.pid;
        error_log \(p)/error.log;
        events { worker_connections 256; }
        http {
            log_format sdg '$connection $server_protocol $request_uri $status';
            access_log \(p)/access.log sdg;
            client_body_temp_path \(p)/tmp;
            proxy_temp_path \(p)/tmp;
            fastcgi_temp_path \(p)/tmp;
            uwsgi_temp_path \(p)/tmp;
            scgi_temp_path \(p)/tmp;
            types { image/png png; image/jpeg jpg; }
            server {
                listen 127.0.0.1:\(port) ssl\(http2 ? " http2" : "");
                ssl_certificate \(certificates.certificate.path);
                ssl_certificate_key \(certificates.key.path);
                root \(root.path);
            }
        }
        """
        let file = prefix.appendingPathComponent("nginx.conf")
        try Data(config.utf8).write(to: file)
        let result = try ChildProcess.run("/usr/sbin/nginx", ["-p", p, "-c", file.path], timeout: 30)
        guard result.status == 0 else { throw SetupError(description: "nginx: \(result.err)") }
        let server = NginxServer(port: port, prefix: prefix)
        guard LocalPort.waitUntilListening(port, timeout: 15) else {
            server.stop()
            throw SetupError(description: "nginx did not listen on \(port)")
        }
        return server
    }

    deinit { stop() }

    /// `https://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL {
        URL(string: "https://127.0.0.1:\(port)\(path.hasPrefix("/") ? path : "/" + path)")!
    }

    /// The access log: one (connection, protocol, path, status) per request, in order.
    public var requests: [(connection: Int, protocolName: String, path: String, status: Int)] {
        let text = (try? String(contentsOf: prefix.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 4, let connection = Int(parts[0]), let status = Int(parts[3]) else { return nil }
            return (connection, String(parts[1]), String(parts[2]), status)
        }
    }

    /// Stops the server (idempotent).
    public func stop() {
        let pidFile = prefix.appendingPathComponent("nginx.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGQUIT)
        try? FileManager.default.removeItem(at: pidFile)
    }
}

/// Loopback ports for servers the tests start as separate programs.
public enum LocalPort {
    /// A port free on 127.0.0.1 now (bound to port 0, then released).
    public static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NginxServer.SetupError(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw NginxServer.SetupError(description: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits (up to `timeout` seconds) until something accepts connections on 127.0.0.1:`port`.
    public static func waitUntilListening(_ port: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }
}
