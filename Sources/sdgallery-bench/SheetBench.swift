import Foundation
import TestSupport

/// `sdgallery-bench sheet --images DIR [--sdgallery BIN] [--runs N] [--quick]`: the contact sheet of 16
/// × 12 MP JPEGs (baseline, then progressive), 4 columns on a 160×48 pty with 10×20-px cells.
/// `sdgallery --print` loads them over loopback HTTP (`BenchServer`, unthrottled) into a fresh
/// XDG_CACHE_HOME (cold) and again from the same one (warm); `timg --grid=4` (half blocks) and
/// `chafa -f sixels` read the same files from disk, each in two versions: the host's (Debian 12:
/// timg 1.4.5, chafa 1.12) and the Debian 13 root's (timg 1.6, chafa 1.14; `RootPeers`), run there
/// with the same arguments and the image folder bind-mounted at its own path, so the file list is
/// the same. Cold: the image files are dropped from the page cache before the run (for every
/// program: the server reads them from disk too; the bind mount shares the host's page cache).
/// Each round runs every program in a rotated order; medians over the rounds, and ratios taken per
/// round, against each peer version side by side.
///
/// The root's peers start through `unshare` + mounts + `chroot`: each round also times `/bin/true`
/// directly and through that wrapper on the same pty, and the difference of the medians is taken off
/// every Debian 13 peer run (tables and ratios), so the wrapper does not count against them.
/// A peer that is missing (no root, no tool, not root) is not run; its rows say why.
enum SheetBench {
    struct Program {
        var name: String
        var command: [String]
        /// sdgallery only: gets a fresh XDG_CACHE_HOME for its cold run.
        var usesCache: Bool
        /// Runs in the Debian 13 root through `RootPeers.wrap`: the wrapper's overhead is taken off its times.
        var inRoot = false
    }

    /// A peer tool of one Debian release: its name in the tables, or why it is not measured.
    struct Peer {
        /// "timg" or "chafa".
        var tool: String
        /// Runs in the Debian 13 root (else the host's /usr/bin).
        var inRoot: Bool
        /// The tool and its version ("timg 1.4.5"): the program's name in the tables.
        var label: String
        /// Why it is not run, nil when it is.
        var missing: String?
    }

    struct Measurement {
        var seconds: [Double] = []
        var bytes: [Double] = []
        var failures = 0
        var requests: [Int] = []
    }

    /// The arguments both versions of a peer get. timg 1.6 and chafa 1.14 take them with the meaning
    /// 1.4.5 and 1.12 give them (`-g`, `--grid`, `-p h`; `-f sixels`, `-s` as the largest size in
    /// cells, `--animate`); chafa 1.14 has no `--grid` either (1.16 has), so both place one image
    /// after the other. Defaults that changed are left as each version ships them: timg 1.6 decodes on
    /// up to ¾ of the cores (1.4.5: half; one thread either way on 2 cores), chafa 1.14's `--polite`
    /// is off (1.12: on; a few escape sequences more or less, no difference in the images).
    static let arguments = ["timg": ["--grid=4", "-g160x48", "-ph"], "chafa": ["-f", "sixels", "-s", "40x12", "--animate", "off"]]

    /// The comparisons of the ratio table: sdgallery's renderer and the peer tool it is measured against.
    static let comparisons = [("sdgallery", "timg"), ("sdgallery", "chafa"), ("sdgallery-sixel", "chafa")]

    static func run(_ context: BenchContext) -> BenchSection {
        var markdown = """
        ## Contact sheet: 16 × 12 MP JPEGs, 4 columns, 160×48 terminal (10×20 px cells)

        Whole-process wall time (spawn to exit, output drained) and bytes written to the terminal, on
        a pseudo-terminal that answers terminal queries at once; median of \(context.runs) rounds, the
        programs' order rotated each round; ratios are medians of per-round ratios.
        **cold**: image files dropped from the page cache (`posix_fadvise DONTNEED`), sdgallery with
        an empty `XDG_CACHE_HOME`; **warm**: the same again at once (files in the page cache,
        sdgallery's disk cache filled by the cold run). timg and chafa run in two versions in the same
        rounds: \(hostRelease)'s, and Debian 13's from the root `scripts/setup --bench` makes
        (`\(RootPeers.root)`, entered by `unshare` + `chroot`; the wrapper's own time, measured each
        round with `/bin/true`, is subtracted from their times).


        """
        let peers = peers()
        var targets: [TargetRow] = []
        for (variant, folder) in [("baseline", "baseline"), ("progressive", "progressive")] {
            let files = context.files(folder)
            guard files.count == 16 else {
                markdown += "### \(variant)\n\nskipped: \(context.images.appendingPathComponent(folder).path) does not hold 16 JPEGs\n\n"
                continue
            }
            let result = measure(context, files: files, folder: folder, peers: peers)
            markdown += "### \(variant) (\(Stats.megabytes(Double(totalSize(files)))) in 16 files)\n\n" + result.markdown
            for (numerator, tool, wanted, limit) in [("sdgallery", "timg", "≤ 0.60×", 0.6), ("sdgallery sixel", "chafa", "≤ 0.50×", 0.5)] {
                for peer in peers where peer.tool == tool {
                    let release = peer.inRoot ? "Debian 13" : hostRelease
                    let name = "contact sheet, \(variant), cold: \(numerator) / \(peer.label) (\(release))\(tool == "chafa" ? " -f sixels" : "")"
                    let ratio = result.ratios[ratioName(numerator.replacingOccurrences(of: " ", with: "-"), peer.label, "cold")] ?? .nan
                    let reason = peer.missing ?? (ratio.isNaN ? "no round measured both" : nil)
                    targets.append(TargetRow(name: name, figure: Stats.ratio(ratio), target: wanted,
                                             met: ratio.isNaN ? nil : ratio <= limit, reason: reason))
                }
            }
            targets.append(TargetRow(name: "contact sheet, \(variant), sdgallery warm / cold", figure: Stats.ratio(result.warmVsCold),
                                     target: "≤ 0.15×", met: result.warmVsCold.isNaN ? nil : result.warmVsCold <= 0.15))
        }
        return BenchSection(markdown: markdown, targets: targets)
    }

    static func totalSize(_ files: [String]) -> Int {
        files.reduce(0) { $0 + (((try? FileManager.default.attributesOfItem(atPath: $1)[.size]) as? Int) ?? 0) }
    }

    /// "Debian 12" from /etc/os-release (the release of the host's timg and chafa), else "host".
    static let hostRelease: String = {
        let text = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let id = fields["ID"], let version = fields["VERSION_ID"] else { return "host" }
        return (id == "debian" ? "Debian" : id) + " " + version
    }()

    /// The first line of the host's `/usr/bin/TOOL --version` (timg prints it on standard error and
    /// may exit non-zero), nil when the tool is not there.
    static func hostVersionLine(_ tool: String) -> String? {
        ChildProcess.output("/bin/sh", ["-c", "test -x /usr/bin/\(tool) && { /usr/bin/\(tool) --version 2>&1 || true; }"])?
            .split(separator: "\n").first.map(String.init)
    }

    /// timg and chafa of the host, then of the Debian 13 root, with their versions (looked up once).
    static func peers() -> [Peer] {
        var peers: [Peer] = []
        for tool in ["timg", "chafa"] {
            let host = hostVersionLine(tool)
            peers.append(Peer(tool: tool, inRoot: false, label: label(tool, host),
                              missing: host == nil ? "no /usr/bin/\(tool) (scripts/setup --bench installs it)" : nil))
        }
        for tool in ["timg", "chafa"] {
            let missing = RootPeers.missing(tool)
            var label = label(tool, missing == nil ? RootPeers.versionLine(tool) : nil)
            if peers.contains(where: { $0.label == label }) { label += " (Debian 13 root)" }
            peers.append(Peer(tool: tool, inRoot: true, label: label, missing: missing))
        }
        return peers
    }

    /// "timg 1.4.5" from a `--version` line, the tool alone when it holds no version.
    static func label(_ tool: String, _ versionLine: String?) -> String {
        versionLine.flatMap(RootPeers.number(in:)).map { "\(tool) \($0)" } ?? tool
    }

    static func ratioName(_ numerator: String, _ peer: String, _ state: String) -> String {
        "\(numerator) \(state) / \(peer) \(state)"
    }

    static func programs(_ context: BenchContext, list: String, files: [String], folder: String, peers: [Peer]) -> [Program] {
        // `--print` in a terminal takes the renderer the probe picks: both are named, so each is
        // compared with its like (half blocks with timg -ph, sixel with chafa -f sixels).
        var programs = [Program(name: "sdgallery", command: [context.sdgallery, "--print", "--renderer", "blocks", "--columns", "4", list], usesCache: true),
                        Program(name: "sdgallery-sixel", command: [context.sdgallery, "--print", "--renderer", "sixel", "--columns", "4", list], usesCache: true)]
        for peer in peers where peer.missing == nil {
            let command = ["/usr/bin/\(peer.tool)"] + (arguments[peer.tool] ?? []) + files
            programs.append(peer.inRoot
                ? Program(name: peer.label, command: RootPeers.wrap(command, binding: [context.images.appendingPathComponent(folder).path]), usesCache: false, inRoot: true)
                : Program(name: peer.label, command: command, usesCache: false))
        }
        return programs
    }

    static func measure(_ context: BenchContext, files: [String], folder: String, peers: [Peer])
        -> (markdown: String, ratios: [String: Double], warmVsCold: Double) {
        let server: BenchServer
        do {
            server = try BenchServer.startBlocking(BenchServer.Config(directory: context.images.appendingPathComponent(folder)))
        } catch {
            return ("server failed: \(error)\n\n", [:], .nan)
        }
        let list = context.writeList("sheet-\(folder).txt", server.names.map { "http://127.0.0.1:\(server.port)/files/\($0)" })
        let programs = programs(context, list: list, files: files, folder: folder, peers: peers)
        let wrapper = RootPeers.wrap(["/bin/true"], binding: [context.images.appendingPathComponent(folder).path])
        var results: [String: Measurement] = [:]
        var rounds: [[String: Double]] = []
        var queries: [String: Set<String>] = [:]
        var direct: [Double] = [], wrapped: [Double] = []
        for round in 0..<context.runs {
            if programs.contains(where: \.inRoot) {
                // The wrapper's cost, on the same pty and under the same load as this round's runs.
                for _ in 0..<3 {
                    if let outcome = try? PtyRunner().run(["/bin/true"]), outcome.status == 0 { direct.append(outcome.seconds) }
                    if let outcome = try? PtyRunner().run(wrapper), outcome.status == 0 { wrapped.append(outcome.seconds) }
                }
            }
            var times: [String: Double] = [:]
            for k in 0..<programs.count {
                let program = programs[(k + round) % programs.count]
                let cache = context.freshDirectory("xdg")
                var runner = PtyRunner()
                runner.environment["XDG_CACHE_HOME"] = cache.path
                for state in ["cold", "warm"] {
                    if state == "cold" { PageCache.evict(files) }
                    server.stats.reset()
                    let key = "\(program.name) \(state)"
                    guard let outcome = try? runner.run(program.command) else {
                        results[key, default: Measurement()].failures += 1
                        continue
                    }
                    results[key, default: Measurement()].seconds.append(outcome.seconds)
                    results[key, default: Measurement()].bytes.append(Double(outcome.bytes))
                    if outcome.status != 0 { results[key, default: Measurement()].failures += 1 }
                    if program.usesCache { results[key, default: Measurement()].requests.append(server.stats.snapshot.total.requests) }
                    queries[program.name, default: []].formUnion(outcome.queries.map(\.0))
                    times[key] = outcome.seconds
                }
                try? FileManager.default.removeItem(at: cache)
            }
            rounds.append(times)
        }
        server.stopBlocking()

        // The wrapper's overhead off the Debian 13 peers' times, before any median or ratio.
        let overhead = max(0, Stats.median(wrapped) - Stats.median(direct))
        for program in programs where program.inRoot && !overhead.isNaN {
            for state in ["cold", "warm"] {
                let key = "\(program.name) \(state)"
                if let seconds = results[key]?.seconds { results[key]?.seconds = seconds.map { $0 - overhead } }
                for i in rounds.indices { rounds[i][key] = rounds[i][key].map { $0 - overhead } }
            }
        }
        var perRound: [String: [Double]] = [:]
        for times in rounds {
            for (numerator, tool) in comparisons {
                for peer in peers where peer.tool == tool {
                    for state in ["cold", "warm"] {
                        if let x = times["\(numerator) \(state)"], let y = times["\(peer.label) \(state)"] {
                            perRound[ratioName(numerator, peer.label, state), default: []].append(x / y)
                        }
                    }
                }
            }
            if let x = times["sdgallery warm"], let y = times["sdgallery cold"] { perRound["sdgallery warm / sdgallery cold", default: []].append(x / y) }
        }

        var markdown = ""
        if programs.contains(where: \.inRoot) {
            markdown += "Debian 13 wrapper (`unshare` + mounts + `chroot`): `/bin/true` through it \(milliseconds(Stats.median(wrapped))), "
            markdown += "directly \(milliseconds(Stats.median(direct))) (medians of \(wrapped.count) and \(direct.count)); "
            markdown += "the difference, **\(milliseconds(overhead))**, is subtracted from every Debian 13 run below.\n\n"
        }
        markdown += "| program | cache | wall time (median) | min – max | bytes written (median) | HTTP requests | failed runs |\n|---|---|---|---|---|---|---|\n"
        for program in programs {
            for state in ["cold", "warm"] {
                let m = results["\(program.name) \(state)"] ?? Measurement()
                let requests = m.requests.isEmpty ? "–" : Set(m.requests).sorted().map(String.init).joined(separator: "/")
                markdown += "| \(program.name)\(program.inRoot ? " (Debian 13)" : "") | \(state) | \(Stats.seconds(Stats.median(m.seconds))) | "
                markdown += "\(Stats.seconds(m.seconds.min() ?? .nan)) – \(Stats.seconds(m.seconds.max() ?? .nan)) | "
                markdown += "\(Stats.kilobytes(Stats.median(m.bytes))) | \(requests) | \(m.failures) |\n"
            }
        }
        for peer in peers {
            if let missing = peer.missing { markdown += "| \(peer.label)\(peer.inRoot ? " (Debian 13)" : "") | – | not measured: \(missing) | | | | |\n" }
        }

        // Side by side: each ratio against the host's peer and against the Debian 13 root's.
        let columns = [false, true].map { inRoot in peers.filter { $0.inRoot == inRoot } }
        markdown += "\n| ratio (per round, median) | "
        markdown += columns.map { column in
            "vs \(column.first?.inRoot == true ? "Debian 13" : hostRelease) (\(column.map(\.label).joined(separator: ", "))) | rounds"
        }.joined(separator: " | ")
        markdown += " |\n|---|---|---|---|---|\n"
        for (numerator, tool) in comparisons {
            for state in ["cold", "warm"] {
                markdown += "| \(numerator) \(state) / \(tool) \(state) |"
                for column in columns {
                    guard let peer = column.first(where: { $0.tool == tool }) else { markdown += " – | – |"; continue }
                    if let missing = peer.missing { markdown += " not measured: \(missing) | – |"; continue }
                    let values = perRound[ratioName(numerator, peer.label, state)] ?? []
                    markdown += " \(Stats.ratio(Stats.median(values))) | \(values.map { String(format: "%.2f", $0) }.joined(separator: ", ")) |"
                }
                markdown += "\n"
            }
        }
        let warmVsCold = perRound["sdgallery warm / sdgallery cold"] ?? []
        markdown += "\nsdgallery warm / sdgallery cold (per round, median): \(Stats.ratio(Stats.median(warmVsCold))) "
        markdown += "(\(warmVsCold.map { String(format: "%.2f", $0) }.joined(separator: ", ")))\n"
        markdown += "\nQueries answered on the pty: "
        markdown += programs.map { "\($0.name): \((queries[$0.name] ?? []).sorted().joined(separator: ", ").nonEmpty ?? "none")" }.joined(separator: "; ")
        markdown += "\n\n"
        var ratios: [String: Double] = [:]
        for (name, values) in perRound { ratios[name] = Stats.median(values) }
        return (markdown, ratios, Stats.median(warmVsCold))
    }

    static func milliseconds(_ seconds: Double) -> String { seconds.isNaN ? "-" : String(format: "%.1f ms", seconds * 1000) }
}

extension String {
    /// nil when empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
