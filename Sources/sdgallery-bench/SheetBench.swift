import Foundation

/// `sdgallery-bench sheet --images DIR [--sdgallery BIN] [--runs N] [--quick]`: the contact sheet of 16
/// × 12 MP JPEGs (baseline, then progressive), 4 columns on a 160×48 pty with 10×20-px cells.
/// `sdgallery --print` loads them over loopback HTTP (`BenchServer`, unthrottled) into a fresh
/// XDG_CACHE_HOME (cold) and again from the same one (warm); `timg --grid=4` (half blocks) and
/// `chafa -f sixels` read the same files from disk. Cold: the image files are dropped from the page
/// cache before the run (for every program: the server reads them from disk too). Each round runs
/// the three programs in a rotated order; medians over the rounds, and ratios taken per round.
enum SheetBench {
    struct Program {
        var name: String
        var command: [String]
        /// sdgallery only: gets a fresh XDG_CACHE_HOME for its cold run.
        var usesCache: Bool
    }

    struct Measurement {
        var seconds: [Double] = []
        var bytes: [Double] = []
        var failures = 0
        var requests: [Int] = []
    }

    static func run(_ context: BenchContext) -> BenchSection {
        var markdown = """
        ## Contact sheet: 16 × 12 MP JPEGs, 4 columns, 160×48 terminal (10×20 px cells)

        Whole-process wall time (spawn to exit, output drained) and bytes written to the terminal, on
        a pseudo-terminal that answers terminal queries at once; median of \(context.runs) rounds, the
        programs' order rotated each round; ratios are medians of per-round ratios.
        **cold**: image files dropped from the page cache (`posix_fadvise DONTNEED`), sdgallery with
        an empty `XDG_CACHE_HOME`; **warm**: the same again at once (files in the page cache,
        sdgallery's disk cache filled by the cold run).


        """
        var targets: [TargetRow] = []
        for (variant, folder) in [("baseline", "baseline"), ("progressive", "progressive")] {
            let files = context.files(folder)
            guard files.count == 16 else {
                markdown += "### \(variant)\n\nskipped: \(context.images.appendingPathComponent(folder).path) does not hold 16 JPEGs\n\n"
                continue
            }
            let result = measure(context, files: files, folder: folder)
            markdown += "### \(variant) (\(Stats.megabytes(Double(totalSize(files)))) in 16 files)\n\n" + result.markdown
            targets.append(TargetRow(name: "contact sheet, \(variant), cold: sdgallery / timg", figure: Stats.ratio(result.coldVsTimg),
                                     target: "≤ 0.60×", met: result.coldVsTimg.isNaN ? nil : result.coldVsTimg <= 0.6))
            targets.append(TargetRow(name: "contact sheet, \(variant), cold: sdgallery sixel / chafa -f sixels", figure: Stats.ratio(result.sixelVsChafa),
                                     target: "≤ 0.50×", met: result.sixelVsChafa.isNaN ? nil : result.sixelVsChafa <= 0.5))
            targets.append(TargetRow(name: "contact sheet, \(variant), sdgallery warm / cold", figure: Stats.ratio(result.warmVsCold),
                                     target: "≤ 0.15×", met: result.warmVsCold.isNaN ? nil : result.warmVsCold <= 0.15))
        }
        return BenchSection(markdown: markdown, targets: targets)
    }

    static func totalSize(_ files: [String]) -> Int {
        files.reduce(0) { $0 + (((try? FileManager.default.attributesOfItem(atPath: $1)[.size]) as? Int) ?? 0) }
    }

    static func programs(_ context: BenchContext, list: String, files: [String]) -> [Program] {
        // `--print` in a terminal takes the renderer the probe picks: both are named, so each is
        // compared with its like (half blocks with timg -ph, sixel with chafa -f sixels).
        var programs = [Program(name: "sdgallery", command: [context.sdgallery, "--print", "--renderer", "blocks", "--columns", "4", list], usesCache: true),
                        Program(name: "sdgallery-sixel", command: [context.sdgallery, "--print", "--renderer", "sixel", "--columns", "4", list], usesCache: true)]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/timg") {
            programs.append(Program(name: "timg", command: ["/usr/bin/timg", "--grid=4", "-g160x48", "-ph"] + files, usesCache: false))
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/chafa") {
            programs.append(Program(name: "chafa", command: ["/usr/bin/chafa", "-f", "sixels", "-s", "40x12", "--animate", "off"] + files, usesCache: false))
        }
        return programs
    }

    static func measure(_ context: BenchContext, files: [String], folder: String)
        -> (markdown: String, coldVsTimg: Double, warmVsCold: Double, sixelVsChafa: Double) {
        let server: BenchServer
        do {
            server = try BenchServer.startBlocking(BenchServer.Config(directory: context.images.appendingPathComponent(folder)))
        } catch {
            return ("server failed: \(error)\n\n", .nan, .nan, .nan)
        }
        let list = context.writeList("sheet-\(folder).txt", server.names.map { "http://127.0.0.1:\(server.port)/files/\($0)" })
        let programs = programs(context, list: list, files: files)
        var results: [String: Measurement] = [:]
        var perRound: [String: [Double]] = [:]
        var queries: [String: Set<String>] = [:]
        for round in 0..<context.runs {
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
            for (name, a, b) in [("sdgallery cold / timg cold", "sdgallery cold", "timg cold"),
                                 ("sdgallery warm / timg warm", "sdgallery warm", "timg warm"),
                                 ("sdgallery cold / chafa cold", "sdgallery cold", "chafa cold"),
                                 ("sdgallery warm / chafa warm", "sdgallery warm", "chafa warm"),
                                 ("sdgallery-sixel cold / chafa cold", "sdgallery-sixel cold", "chafa cold"),
                                 ("sdgallery-sixel warm / chafa warm", "sdgallery-sixel warm", "chafa warm"),
                                 ("sdgallery warm / sdgallery cold", "sdgallery warm", "sdgallery cold")] {
                if let x = times[a], let y = times[b] { perRound[name, default: []].append(x / y) }
            }
        }
        server.stopBlocking()

        var markdown = "| program | cache | wall time (median) | min – max | bytes written (median) | HTTP requests | failed runs |\n|---|---|---|---|---|---|---|\n"
        for program in programs {
            for state in ["cold", "warm"] {
                let m = results["\(program.name) \(state)"] ?? Measurement()
                let requests = m.requests.isEmpty ? "–" : Set(m.requests).sorted().map(String.init).joined(separator: "/")
                markdown += "| \(program.name) | \(state) | \(Stats.seconds(Stats.median(m.seconds))) | "
                markdown += "\(Stats.seconds(m.seconds.min() ?? .nan)) – \(Stats.seconds(m.seconds.max() ?? .nan)) | "
                markdown += "\(Stats.kilobytes(Stats.median(m.bytes))) | \(requests) | \(m.failures) |\n"
            }
        }
        markdown += "\n| ratio (per round, median) | value | rounds |\n|---|---|---|\n"
        for name in ["sdgallery cold / timg cold", "sdgallery warm / timg warm", "sdgallery cold / chafa cold",
                     "sdgallery warm / chafa warm", "sdgallery-sixel cold / chafa cold", "sdgallery-sixel warm / chafa warm",
                     "sdgallery warm / sdgallery cold"] {
            let values = perRound[name] ?? []
            markdown += "| \(name) | \(Stats.ratio(Stats.median(values))) | \(values.map { String(format: "%.2f", $0) }.joined(separator: ", ")) |\n"
        }
        markdown += "\nQueries answered on the pty: "
        markdown += programs.map { "\($0.name): \((queries[$0.name] ?? []).sorted().joined(separator: ", ").nonEmpty ?? "none")" }.joined(separator: "; ")
        markdown += "\n\n"
        return (markdown, Stats.median(perRound["sdgallery cold / timg cold"] ?? []), Stats.median(perRound["sdgallery warm / sdgallery cold"] ?? []),
                Stats.median(perRound["sdgallery-sixel cold / chafa cold"] ?? []))
    }
}

extension String {
    /// nil when empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
