import Foundation
import TestSupport

/// `sdgallery-bench suite --images DIR [--sdgallery BIN] [--quick] [--runs N] [--out FILE]`: every
/// end-to-end benchmark (`sheet`, `scroll`, `memory`, `keys`), the summary table against the
/// targets printed on standard output, and the whole report (machine, versions of the host's and
/// the Debian 13 root's timg and chafa, commands, tables) written to `--out` (`docs/benchmarks.md`
/// from `scripts/bench`). `sheet`, `scroll`, `memory` and `keys` run one part alone and print its
/// section.
enum SuiteCommand {
    static func run(_ name: String, _ arguments: [String]) {
        guard let context = BenchContext.from(arguments) else { return }
        defer { context.cleanUp() }
        guard FileManager.default.isExecutableFile(atPath: context.sdgallery) else {
            FileHandle.standardError.write(Data("no sdgallery binary at \(context.sdgallery) (give --sdgallery)\n".utf8))
            exit(1)
        }
        let parts: [(String, (BenchContext) -> BenchSection)] = [
            ("sheet", { SheetBench.run($0) }),
            ("scroll", { ScrollBench.run($0, arguments: arguments) }),
            ("memory", { MemoryBench.run($0) }),
            ("keys", { KeyLatencyBench.run($0, arguments: arguments) }),
        ]
        let machineBefore = machine()
        let started = monotonicNow()
        var sections: [BenchSection] = []
        for (part, body) in parts where name == "suite" || name == part {
            FileHandle.standardError.write(Data("sdgallery-bench: \(part)…\n".utf8))
            let section = body(context)
            sections.append(section)
            if name != "suite" { print(section.markdown) }
        }
        let summary = "| target | measured | wanted | verdict |\n|---|---|---|---|\n"
            + sections.flatMap(\.targets).map(\.markdownRow).joined(separator: "\n") + "\n"
        print(summary)
        guard name == "suite", let out = Arguments.string("--out", in: arguments) else { return }
        let report = header(context, machine: machineBefore, minutes: (monotonicNow() - started) / 60)
            + "## Summary\n\n" + summary + "\n" + sections.map(\.markdown).joined() + commands(context)
            + keptNotes(of: out)
        do {
            try FileManager.default.createDirectory(at: URL(fileURLWithPath: out).deletingLastPathComponent(), withIntermediateDirectories: true)
            try report.write(toFile: out, atomically: true, encoding: .utf8)
            FileHandle.standardError.write(Data("sdgallery-bench: wrote \(out)\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("sdgallery-bench: cannot write \(out): \(error); the report follows\n".utf8))
            print(report)
        }
    }

    /// The line after which `docs/benchmarks.md` holds hand-written notes (profiles, analysis) that a
    /// new run keeps.
    static let notesMarker = "<!-- notes below are kept by scripts/bench -->"

    /// The marker and the notes under it in the current report, or just the marker.
    static func keptNotes(of path: String) -> String {
        let old = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard let range = old.range(of: notesMarker) else { return notesMarker + "\n" }
        return String(old[range.lowerBound...])
    }

    /// CPU, cores, memory, kernel, load, tool versions.
    static func machine() -> [(String, String)] {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "?"
        let memory = ((try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? "").split(separator: "\n").first
            .map { $0.replacingOccurrences(of: "MemTotal:", with: "").trimmingCharacters(in: .whitespaces) } ?? "?"
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
        func firstLine(_ path: String, _ arguments: [String]) -> String {
            ChildProcess.output(path, arguments)?.split(separator: "\n").first.map(String.init) ?? "not installed"
        }
        return [
            ("CPU", "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores"),
            ("memory", memory),
            ("kernel", firstLine("/bin/uname", ["-sr"])),
            ("load average at start (1, 5, 15 min)", load),
            // timg prints its version on standard error; a failing `--version` is not a missing
            // timg (the run of 2026-11-22 said "not installed" and then timed it).
            ("timg", SheetBench.hostVersionLine("timg") ?? "not installed"),
            ("chafa", SheetBench.hostVersionLine("chafa") ?? "not installed"),
            // The contact sheet's second pair of peers, in the Debian 13 root (`RootPeers`).
            ("timg (Debian 13 root)", RootPeers.versionLine("timg")),
            ("chafa (Debian 13 root)", RootPeers.versionLine("chafa")),
            ("tmux", firstLine("/usr/bin/tmux", ["-V"])),
            ("libjpeg-turbo", firstLine("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "libjpeg62-turbo"])),
        ]
    }

    static func header(_ context: BenchContext, machine: [(String, String)], minutes: Double) -> String {
        let date = ISO8601DateFormatter().string(from: Date())
        let version = ChildProcess.output(context.sdgallery, ["--version"])?.split(separator: "\n").first.map(String.init) ?? "?"
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
        var text = """
        # sdgallery benchmarks

        Written by `scripts/bench`\(context.quick ? " --quick" : "") (`make bench`) on \(date), in \(String(format: "%.1f", minutes)) minutes.
        The machine is a shared 2-core VM: other work runs beside the benchmark, so compare the ratios
        (taken within one round) rather than the absolute times, and expect run-to-run spread.

        | | |
        |---|---|
        | sdgallery | \(version) (release build) |

        """
        for (name, value) in machine { text += "| \(name) | \(value) |\n" }
        text += "| load average at the end | \(load) |\n\n"
        return text
    }

    static func commands(_ context: BenchContext) -> String {
        """
        ## How it is measured

        `scripts/bench` installs what is missing (`scripts/setup --bench`: the test tools, `timg` and
        `chafa` on the host, the Debian 13 root with timg 1.6 and chafa 1.14), builds the release
        binaries, makes the images once in `${TMPDIR:-/tmp}/sdgallery-bench-images` (16 × 4000×3000
        JPEGs from ImageMagick `plasma:fractal` with Gaussian noise, quality 90, four of them
        transformed losslessly by `jpegtran`; `progressive/` = `jpegtran -progressive` of the same;
        `web/` = 1600×1200 copies, quality 85) and runs `sdgallery-bench suite`.

        Programs, as run on the benchmark pseudo-terminal (`sdgallery-bench pty`: 160×48 cells, 10×20
        px cells in `TIOCGWINSZ`, TERM=xterm-256color, COLORTERM=truecolor; it answers DA1 (with
        sixel), DA2, XTVERSION, CSI 14/16/18 t, CSI 6 n, CSI 5 n, DECRQM and OSC 10/11 at once):

        ```sh
        XDG_CACHE_HOME=$FRESH sdgallery --print --columns 4 sheet.txt  # 16 lines http://127.0.0.1:$PORT/files/NN.jpg
        timg --grid=4 -g160x48 -ph baseline/*.jpg                     # Debian timg, half blocks, its default 1 decode thread here
        chafa -f sixels -s 40x12 --animate off baseline/*.jpg         # chafa 1.12 has no --grid: one image after the other, each fit to 40×12 cells
        # Debian 13's timg 1.6 and chafa 1.14 (the same arguments; chafa 1.14 has no --grid either), in the root:
        unshare --mount --propagation private -- sh -c 'for d in dev proc sys; do mount --rbind /$d $ROOT/$d; done;
          mount --bind $IMAGES/baseline $ROOT$IMAGES/baseline; exec chroot $ROOT "$@"' sh timg --grid=4 -g160x48 -ph $IMAGES/baseline/*.jpg
        ```

        The wrapper's overhead (the median of `/bin/true` through it minus the median of `/bin/true`
        alone, 3 runs of each per round on the same pty) is subtracted from every Debian 13 peer run
        before medians and ratios; the sheet's sections print it.

        The loopback server is `sdgallery-bench serve` (in-process here): it serves a folder as
        `/files/NAME` and `/img/N.jpg` (alias N → file N mod 16), throttles each response
        (`--rate`), fails a seeded fraction (`--fail-rate`, `--fail-status`, `--cut-rate`), counts
        requests and body bytes per path (`/__stats`, and a JSON file on SIGTERM).

        The UI parts run `sdgallery --stats LIST 2>stats` in `tmux -L <private socket> new-session -d -x 160 -y 48`
        (status line off), send keys with `send-keys` and read the screen with `capture-pane`; an
        image counts as on screen when its caption (`N.jpg`) is, and as complete when its details
        line shows its pixel size (or an error). Each part alone: `sdgallery-bench sheet|scroll|memory|keys --images DIR`.

        """
    }
}
