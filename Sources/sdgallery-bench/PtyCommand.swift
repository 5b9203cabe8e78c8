import Foundation

/// `sdgallery-bench pty [--stderr PATH] [--env K=V]… -- COMMAND [ARGS…]`: runs COMMAND on the
/// benchmark pseudo-terminal (`PtyRunner`: 160×48 cells of 10×20 px, queries answered) and prints its
/// wall time, the bytes it wrote, its exit status and the queries it asked.
enum PtyCommand {
    static func run(_ arguments: [String]) {
        guard let separator = arguments.firstIndex(of: "--"), separator + 1 < arguments.count else {
            print("usage: sdgallery-bench pty [--stderr PATH] [--env K=V]… -- COMMAND [ARGS…]")
            return
        }
        let options = Array(arguments[..<separator])
        var runner = PtyRunner()
        runner.stderrPath = Arguments.string("--stderr", in: options)
        for (i, option) in options.enumerated() where option == "--env" && i + 1 < options.count {
            let pair = options[i + 1].split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { runner.environment[pair[0]] = pair[1] }
        }
        do {
            let result = try runner.run(Array(arguments[(separator + 1)...]))
            print(String(format: "wall %.3f s, %d bytes written, exit status %d, %d replies", result.seconds, result.bytes, result.status, result.replies))
            for (query, count) in result.queries { print("  query \(query) ×\(count)") }
        } catch {
            print("pty: \(error)")
        }
    }
}
