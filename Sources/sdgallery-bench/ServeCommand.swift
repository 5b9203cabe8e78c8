import Dispatch
import Foundation

/// `sdgallery-bench serve DIR [--rate BYTES/S] [--fail-rate F] [--fail-status CODE] [--cut-rate F]
/// [--seed N] [--stats-file PATH] [--port-file PATH]`: runs `BenchServer` over DIR until SIGTERM or
/// SIGINT, then writes its counters (JSON) to `--stats-file` (or standard error). Prints
/// `port N` on standard output once it listens (and writes N to `--port-file`).
///
/// ```sh
/// sdgallery-bench serve /tmp/images --rate 200k --fail-rate 0.1 --stats-file stats.json &
/// curl -s http://127.0.0.1:PORT/img/1234.jpg -o /dev/null; curl -s http://127.0.0.1:PORT/__stats
/// kill %1
/// ```
enum ServeCommand {
    static func run(_ arguments: [String]) async {
        guard let directory = arguments.first, !directory.hasPrefix("--") else {
            usage()
            return
        }
        var config = BenchServer.Config(directory: URL(fileURLWithPath: directory))
        do {
            config.bytesPerSecond = try Arguments.rate("--rate", in: arguments) ?? 0
            config.failRate = try Arguments.fraction("--fail-rate", in: arguments) ?? 0
            config.failStatus = Arguments.int("--fail-status", in: arguments) ?? 503
            config.cutRate = try Arguments.fraction("--cut-rate", in: arguments) ?? 0
            config.seed = UInt64(Arguments.int("--seed", in: arguments) ?? 1)
        } catch {
            FileHandle.standardError.write(Data("serve: \(error)\n".utf8))
            exit(2)
        }
        let server: BenchServer
        do {
            server = try await BenchServer.start(config)
        } catch {
            FileHandle.standardError.write(Data("serve: \(error)\n".utf8))
            exit(1)
        }
        if let portFile = Arguments.string("--port-file", in: arguments) {
            try? "\(server.port)\n".write(toFile: portFile, atomically: true, encoding: .utf8)
        }
        FileHandle.standardOutput.write(Data("""
            port \(server.port)
            serving \(server.names.count) images of \(directory) as /img/N.jpg (N mod \(server.names.count)) and /files/NAME; counters at /__stats

            """.utf8))
        let statsFile = Arguments.string("--stats-file", in: arguments)
        waitForTermination {
            let json = server.stats.json()
            if let statsFile {
                try? json.write(to: URL(fileURLWithPath: statsFile))
            } else {
                FileHandle.standardError.write(json + Data("\n".utf8))
            }
            exit(0)
        }
    }

    /// Calls `body` on the first SIGTERM or SIGINT; never returns.
    static func waitForTermination(_ body: @escaping @Sendable () -> Void) -> Never {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let queue = DispatchQueue(label: "serve.signals")
        let sources = [SIGTERM, SIGINT].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for source in sources {
            source.setEventHandler(handler: body)
            source.resume()
        }
        while true { sleep(3600) }
    }

    static func usage() {
        print("""
        usage: sdgallery-bench serve DIR [--rate BYTES/S] [--fail-rate F] [--fail-status CODE] [--cut-rate F]
                                         [--seed N] [--stats-file PATH] [--port-file PATH]
          serves DIR's images on 127.0.0.1 (free port, printed as `port N`) as /img/N.jpg (N mod the
          number of images) and /files/NAME; --rate throttles each response (e.g. 200k, 1.5M; default
          unthrottled); a seeded fraction --fail-rate of requests gets --fail-status (default 503) and a
          fraction --cut-rate of the others is cut at half its body; counters at /__stats (JSON),
          /__reset zeroes them; on SIGTERM/SIGINT the counters go to --stats-file (or stderr).
        """)
    }
}
